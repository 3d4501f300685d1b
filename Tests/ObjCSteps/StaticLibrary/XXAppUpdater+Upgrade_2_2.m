#include "../XXAppUpdater.h"

@interface XXAppUpdater (Upgrade_2_2)
@end

// A category alone in its object file, archived into a static library that the test's shared
// library links without --whole-archive (the ELF linker's -ObjC): nothing refers to a symbol of this
// file, so the linker leaves it out, and +appUpgradeTo_2_2 is not loaded. An app that expects it
// gets an error naming it; the pattern, and objectiveCMethods(ofClassNamed:), never see it.
@implementation XXAppUpdater (Upgrade_2_2)

+ (BOOL)appUpgradeTo_2_2 {
    XXRecord("appUpgradeTo_2_2", "category");
    return YES;
}

@end
