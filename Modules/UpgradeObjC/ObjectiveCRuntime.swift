// The one place, with ObjectiveCRuntime+Loading.swift, where the package calls the Objective-C
// runtime: C function pointers, raw object pointers, and the casts of an implementation to the
// function type its method declares. Everything else works on selector names and type encodings.

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

#if canImport(ObjectiveC)
    import ObjectiveC

    /// The Objective-C runtime of the process: on Apple platforms, the system's.
    struct ObjectiveCRuntime: Sendable {
        /// A class and its metaclass, which holds the class methods.
        ///
        /// Unchecked: a class object is immutable and lives as long as the process.
        struct Class: @unchecked Sendable {
            /// The class object, the receiver of a class method.
            let object: AnyClass
            /// Its metaclass.
            let metaclass: AnyClass
        }

        /// The system's runtime, always loaded on Apple platforms.
        ///
        /// - Parameter className: The class being looked for, for the error (never thrown here).
        /// - Returns: The runtime.
        static func loaded(lookingFor className: String) throws(ObjectiveCStepsError) -> ObjectiveCRuntime {
            ObjectiveCRuntime()
        }

        /// The class of that name, or `nil` when the runtime knows none.
        func lookUpClass(named name: String) -> Class? {
            guard let object = objc_lookUpClass(name), let metaclass = object_getClass(object) else { return nil }
            return Class(object: object, metaclass: metaclass)
        }

        /// The names of the class methods, categories included, as the runtime lists them (a
        /// selector that a category overrides is listed more than once).
        func classMethodNames(of someClass: Class) -> [String] {
            var count: UInt32 = 0
            guard let methods = class_copyMethodList(someClass.metaclass, &count) else { return [] }
            defer { free(methods) }
            return (0..<Int(count)).map { String(cString: sel_getName(method_getName(methods[$0]))) }
        }

        /// The type encoding of the class method a message send of `selector` reaches.
        func typeEncoding(ofClassMethod selector: String, in someClass: Class) -> String? {
            guard let method = class_getClassMethod(someClass.object, sel_registerName(selector)),
                let encoding = method_getTypeEncoding(method)
            else { return nil }
            return String(cString: encoding)
        }

        /// Calls the class method as a message send would, inside an autorelease pool.
        ///
        /// - Returns: `false` when a `BOOL` method returns `NO`, `true` otherwise.
        @MainActor
        func call(_ selector: String, in someClass: Class, returning kind: ObjectiveCTypeEncoding.ReturnKind) -> Bool {
            autoreleasepool {
                let sel = sel_registerName(selector)
                // The implementation a message send reaches (sending +initialize first, as a send would).
                guard let implementation = class_getMethodImplementation(someClass.metaclass, sel) else { return false }
                let receiver = unsafeBitCast(someClass.object, to: UnsafeRawPointer.self)
                switch kind {
                case .bool:
                    typealias Function = @convention(c) (UnsafeRawPointer, Selector) -> UInt8
                    return unsafeBitCast(implementation, to: Function.self)(receiver, sel) != 0
                case .void:
                    typealias Function = @convention(c) (UnsafeRawPointer, Selector) -> Void
                    unsafeBitCast(implementation, to: Function.self)(receiver, sel)
                    return true
                }
            }
        }
    }
#else
    /// The Objective-C runtime loaded in the process: GCC's `libobjc` (as Debian's GNUstep uses) or
    /// libobjc2, reached through the functions it exports.
    ///
    /// Unchecked: it holds C function pointers of a library that stays loaded (its handle is never
    /// closed), and nothing mutable.
    struct ObjectiveCRuntime: @unchecked Sendable {
        typealias Pointer = UnsafeMutableRawPointer
        typealias GetClass = @convention(c) (UnsafePointer<CChar>) -> Pointer?
        typealias CopyMethodList =
            @convention(c) (Pointer?, UnsafeMutablePointer<UInt32>?) -> UnsafeMutablePointer<Pointer?>?
        typealias MethodGetName = @convention(c) (Pointer?) -> Pointer?
        typealias SelGetName = @convention(c) (Pointer?) -> UnsafePointer<CChar>?
        typealias MethodGetTypeEncoding = @convention(c) (Pointer?) -> UnsafePointer<CChar>?
        typealias GetClassMethod = @convention(c) (Pointer?, Pointer?) -> Pointer?
        typealias SelRegisterName = @convention(c) (UnsafePointer<CChar>) -> Pointer?
        typealias LookUp = @convention(c) (Pointer?, Pointer?) -> Pointer?
        typealias PoolPush = @convention(c) () -> Pointer?
        typealias PoolPop = @convention(c) (Pointer?) -> Void

        /// A class and its metaclass, which holds the class methods.
        ///
        /// Unchecked: a class object is immutable and lives as long as its library.
        struct Class: @unchecked Sendable {
            /// The class object, the receiver of a class method.
            let object: Pointer
            /// Its metaclass.
            let metaclass: Pointer
        }

        /// Where the runtime was found, for messages.
        let source: String
        let getClass: GetClass
        let getMetaClass: GetClass
        let copyMethodList: CopyMethodList
        let methodGetName: MethodGetName
        let selGetName: SelGetName
        let methodGetTypeEncoding: MethodGetTypeEncoding
        let getClassMethod: GetClassMethod
        let selRegisterName: SelRegisterName
        /// `objc_msg_lookup(receiver, selector)`: what a message send calls on GCC's runtime (which
        /// has no `objc_msgSend`) and on libobjc2, to find the implementation it then calls.
        let lookUp: LookUp
        /// libobjc2's own autorelease pool functions, when the runtime has them.
        let poolPush: PoolPush?
        let poolPop: PoolPop?

        /// The class of that name, or `nil` when the runtime knows none.
        func lookUpClass(named name: String) -> Class? {
            guard let object = getClass(name), let metaclass = getMetaClass(name) else { return nil }
            return Class(object: object, metaclass: metaclass)
        }

        /// The names of the class methods, categories included, as the runtime lists them (a
        /// selector that a category overrides is listed more than once).
        func classMethodNames(of someClass: Class) -> [String] {
            var count: UInt32 = 0
            guard let methods = copyMethodList(someClass.metaclass, &count) else { return [] }
            defer { free(methods) }
            return (0..<Int(count)).compactMap { index in
                selGetName(methodGetName(methods[index])).map { String(cString: $0) }
            }
        }

        /// The type encoding of the class method a message send of `selector` reaches.
        func typeEncoding(ofClassMethod selector: String, in someClass: Class) -> String? {
            guard let sel = selRegisterName(selector), let method = getClassMethod(someClass.object, sel),
                let encoding = methodGetTypeEncoding(method)
            else { return nil }
            return String(cString: encoding)
        }

        /// Calls the class method as a message send would (`objc_msg_lookup`, then the implementation
        /// it returns), inside an autorelease pool.
        ///
        /// - Returns: `false` when a `BOOL` method returns `NO`, `true` otherwise.
        @MainActor
        func call(_ selector: String, in someClass: Class, returning kind: ObjectiveCTypeEncoding.ReturnKind) -> Bool {
            let pool = pushPool()
            defer { pop(pool) }
            // The method's own selector: on libobjc2 a method's selector is typed, and a send of the
            // untyped one that sel_registerName gives reports a signature mismatch. A method found
            // when the steps were made stays (these runtimes remove none while its library is loaded).
            guard let named = selRegisterName(selector), let method = getClassMethod(someClass.object, named),
                let sel = methodGetName(method), let implementation = lookUp(someClass.object, sel)
            else { return false }
            switch kind {
            case .bool:
                typealias Function = @convention(c) (Pointer?, Pointer?) -> UInt8
                return unsafeBitCast(implementation, to: Function.self)(someClass.object, sel) != 0
            case .void:
                typealias Function = @convention(c) (Pointer?, Pointer?) -> Void
                unsafeBitCast(implementation, to: Function.self)(someClass.object, sel)
                return true
            }
        }

        /// An autorelease pool made for one call.
        private enum Pool {
            /// libobjc2's pool, by its token.
            case runtime(Pointer?)
            /// An `NSAutoreleasePool` object (Foundation's, such as GNUstep Base's).
            case object(Pointer)
            /// No pool: GCC's runtime without a Foundation loaded has none.
            case none
        }

        /// Starts a pool: the runtime's own (libobjc2), or an `NSAutoreleasePool` made through the
        /// runtime when a Foundation defines that class (GCC's runtime has no pool functions).
        private func pushPool() -> Pool {
            if let poolPush, poolPop != nil { return .runtime(poolPush()) }
            guard let poolClass = getClass("NSAutoreleasePool"), let sel = selRegisterName("new"),
                let implementation = lookUp(poolClass, sel)
            else { return .none }
            typealias New = @convention(c) (Pointer?, Pointer?) -> Pointer?
            return unsafeBitCast(implementation, to: New.self)(poolClass, sel).map { .object($0) } ?? .none
        }

        /// Ends the pool, releasing what was autoreleased in it.
        private func pop(_ pool: Pool) {
            switch pool {
            case .runtime(let token): poolPop?(token)
            case .object(let object):
                guard let sel = selRegisterName("drain"), let implementation = lookUp(object, sel) else { return }
                typealias Drain = @convention(c) (Pointer?, Pointer?) -> Void
                unsafeBitCast(implementation, to: Drain.self)(object, sel)
            case .none: break
            }
        }
    }
#endif
