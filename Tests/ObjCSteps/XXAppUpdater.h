#include <objc/Object.h>
#include "StepJournal.h"

// The class of the pattern: each upgrade step is a class method, most in a category of their own.
@interface XXAppUpdater : Object
+ (BOOL)appUpgradeTo_1_1;
+ (BOOL)appUpgradeTo_2_0;
+ (void)resetCaches;
+ (BOOL)upgradeHelper;
@end
