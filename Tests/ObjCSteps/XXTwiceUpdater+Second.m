#include <objc/Object.h>
#include "StepJournal.h"

@interface XXTwiceUpdater : Object
@end

@interface XXTwiceUpdater (Second)
@end

// The second category that defines appUpgradeTo_1_2 (the first is in XXTwiceUpdater.m).
@implementation XXTwiceUpdater (Second)

+ (BOOL)appUpgradeTo_1_2 {
    XXRecord("appUpgradeTo_1_2", "second");
    return YES;
}

@end
