#include <objc/Object.h>
#include "StepJournal.h"

// A class whose step appUpgradeTo_1_2 two categories both define (below, and in
// XXTwiceUpdater+Second.m): the runtime lists the selector twice, and which definition a message
// send reaches depends on the order the categories were loaded in. Looking for its steps with the
// expected ids is an error unless the app names the selector as overridden.
@interface XXTwiceUpdater : Object
@end

@implementation XXTwiceUpdater

+ (BOOL)appUpgradeTo_1_1 {
    XXRecord("appUpgradeTo_1_1", "class");
    return YES;
}

@end

@interface XXTwiceUpdater (First)
@end

@implementation XXTwiceUpdater (First)

+ (BOOL)appUpgradeTo_1_2 {
    XXRecord("appUpgradeTo_1_2", "first");
    return YES;
}

@end
