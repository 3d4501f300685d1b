#include "XXAppUpdater.h"

@interface XXAppUpdater (Upgrade_3_0)
@end

@implementation XXAppUpdater (Upgrade_3_0)

// Three steps of version 3.0 (3.0 == 3.0.0), run in the order of their selectors' names:
// APPUPGRADETO_3_0, appUpgradeTo_3_0, appUpgradeTo_3_0_0.
+ (BOOL)appUpgradeTo_3_0_0 {
    XXRecord("appUpgradeTo_3_0_0", "category");
    return YES;
}

+ (BOOL)appUpgradeTo_3_0 {
    XXRecord("appUpgradeTo_3_0", "category");
    return YES;
}

+ (BOOL)APPUPGRADETO_3_0 {
    XXRecord("APPUPGRADETO_3_0", "category");
    return YES;
}

// A step of a version above every launch of the test: it never runs.
+ (BOOL)appUpgradeTo_9_0 {
    XXRecord("appUpgradeTo_9_0", "category");
    return YES;
}

@end
