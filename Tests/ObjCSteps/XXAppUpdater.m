#include "XXAppUpdater.h"

@implementation XXAppUpdater

+ (BOOL)appUpgradeTo_1_1 {
    XXRecord("appUpgradeTo_1_1", "class");
    return YES;
}

// Overridden by the category in XXAppUpdater+Upgrade_2_0.m: a message send reaches the category's.
+ (BOOL)appUpgradeTo_2_0 {
    XXRecord("appUpgradeTo_2_0", "class");
    return YES;
}

// Unrelated class methods: never steps, never errors.
+ (void)resetCaches {
    XXRecord("resetCaches", "unrelated");
}

+ (BOOL)upgradeHelper {
    XXRecord("upgradeHelper", "unrelated");
    return NO;
}

@end
