#include "XXAppUpdater.h"

@interface XXAppUpdater (Upgrade_1_2)
@end

@implementation XXAppUpdater (Upgrade_1_2)

// A void step: it succeeds when it returns.
+ (void)appUpgradeTo_1_2 {
    XXRecord("appUpgradeTo_1_2", "void");
}

@end
