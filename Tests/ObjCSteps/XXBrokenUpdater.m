#include <objc/Object.h>
#include "StepJournal.h"

// A class whose methods named like steps cannot be steps: looking for its steps is an error that
// names each of them, and nothing runs.
@interface XXBrokenUpdater : Object
@end

@implementation XXBrokenUpdater

// Four components: the pattern's unanchored regex took it as 1.2.3.
+ (BOOL)appUpgradeTo_1_2_3_4 {
    XXRecord("appUpgradeTo_1_2_3_4", "broken");
    return YES;
}

// Takes an argument.
+ (BOOL)appUpgradeTo_1_2:(int)attempt {
    XXRecord("appUpgradeTo_1_2:", "broken");
    return attempt > 0;
}

// Returns an object.
+ (id)appUpgradeTo_1_3 {
    XXRecord("appUpgradeTo_1_3", "broken");
    return nil;
}

// Junk after the digits.
+ (BOOL)appUpgradeTo_1_4beta {
    XXRecord("appUpgradeTo_1_4beta", "broken");
    return YES;
}

// Returns an int.
+ (int)appupgradeto_1_6 {
    XXRecord("appupgradeto_1_6", "broken");
    return 1;
}

// A good step, and a method that does not start with the prefix: neither is named in the error.
+ (BOOL)AppUpgradeTo_1_5 {
    XXRecord("AppUpgradeTo_1_5", "good");
    return YES;
}

+ (BOOL)xappUpgradeTo_1_2 {
    XXRecord("xappUpgradeTo_1_2", "unrelated");
    return YES;
}

@end
