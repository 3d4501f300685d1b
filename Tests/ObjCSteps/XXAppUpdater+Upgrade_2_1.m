#include "XXAppUpdater.h"

@interface XXAppUpdater (Upgrade_2_1)
@end

@implementation XXAppUpdater (Upgrade_2_1)

// Returns NO at its first call, in whatever launch that is; YES after.
+ (BOOL)appUpgradeTo_2_1 {
    if (XXFirstTime("appUpgradeTo_2_1")) {
        XXRecord("appUpgradeTo_2_1", "NO");
        return NO;
    }
    XXRecord("appUpgradeTo_2_1", "YES");
    return YES;
}

@end
