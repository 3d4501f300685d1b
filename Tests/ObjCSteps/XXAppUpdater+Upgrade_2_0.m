#include "XXAppUpdater.h"

@interface XXAppUpdater (Upgrade_2_0)
@end

#pragma clang diagnostic ignored "-Wobjc-protocol-method-implementation"

@implementation XXAppUpdater (Upgrade_2_0)

// Overrides the class's own +appUpgradeTo_2_0: the runtime lists the selector twice.
+ (BOOL)appUpgradeTo_2_0 {
    XXRecord("appUpgradeTo_2_0", "category");
    return YES;
}

@end
