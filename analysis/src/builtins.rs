//! What each language's standard library names, for resolution to leave alone: a call on a
//! receiver whose type the file does not declare (`items.append(x)`, `s.split(",")`,
//! `v.unwrap()`) names a method of a built-in or standard type far more often than any
//! definition of the repository, so it is `unresolved` rather than the nearest method that
//! happens to share the name (docs/resolution.md, `unresolved`).
//!
//! The lists are names of methods of the types a program meets without importing them:
//! strings, lists, maps, sets, options and results, iterators, files, regular-expression
//! matches, loggers — not every method of the standard library, and not names that programs
//! mostly define for their own types (`run`, `send`, `load`, `fmt`). They trade recall for
//! precision: a repository's own `append`, called on a receiver whose type the file does not
//! declare, is left unresolved rather than every list's `append` being a call to it. A
//! declared receiver's type (`receiver_type`) decides before these lists are read.

use std::sync::LazyLock;

// FxHash: these sets are asked for most calls with a receiver (SipHash showed in profiles).
use rustc_hash::FxHashSet as HashSet;

/// Python: `str`, `bytes`, `list`, `dict`, `set`, `re.Match`/`re.Pattern`, file objects,
/// `logging.Logger`, `hashlib`'s digests.
const PYTHON_METHODS: &str = "
    capitalize casefold center count decode encode endswith expandtabs find format format_map
    index isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric isprintable
    isspace istitle isupper join ljust lower lstrip partition removeprefix removesuffix replace
    rfind rindex rjust rpartition rsplit rstrip split splitlines startswith strip swapcase title
    translate upper zfill
    append extend insert remove pop clear sort reverse copy
    get items keys values update setdefault popitem fromkeys
    add discard union intersection difference symmetric_difference issubset issuperset
    isdisjoint intersection_update difference_update
    group groups groupdict start end span fullmatch findall finditer sub subn search match
    read readline readlines write writelines flush seek tell fileno close
    debug info warning warn error exception critical
    hexdigest
";

/// JavaScript and TypeScript: `Array`, `String`, `Map`/`Set`, `Promise`, `Function`,
/// `Object.prototype`, `RegExp`, `Number`.
const JS_METHODS: &str = "
    push pop shift unshift slice splice concat join indexOf lastIndexOf includes find findIndex
    findLast findLastIndex filter map forEach reduce reduceRight some every sort reverse flat
    flatMap fill at entries keys values
    split trim trimStart trimEnd toLowerCase toUpperCase startsWith endsWith replace replaceAll
    substring substr charAt charCodeAt codePointAt padStart padEnd repeat match matchAll
    localeCompare normalize toLocaleLowerCase toLocaleUpperCase
    get set has delete add clear
    then catch finally call apply bind
    hasOwnProperty toString valueOf toFixed toPrecision test exec
";

/// Rust: `Option`, `Result`, `Iterator`, `Clone` and the conversion traits, `Vec`, slices,
/// `str`/`String`, the maps and sets, `Mutex`/`RefCell`, the integers, `io::Read`/`Write`,
/// `Any`; and the functions of `Default`, `From`, `FromStr` and `FromIterator` (`T::default()`
/// where `T` has no `default` of its own here derives it).
const RUST_METHODS: &str = "
    unwrap expect unwrap_or unwrap_or_else unwrap_or_default unwrap_err expect_err
    unwrap_unchecked map_err map_or map_or_else and_then or_else ok err ok_or ok_or_else
    is_some is_none is_ok is_err is_some_and is_none_or is_ok_and is_err_and as_deref
    as_deref_mut transpose flatten get_or_insert get_or_insert_with take replace
    clone clone_from to_string to_owned into try_into as_ref as_mut borrow borrow_mut
    iter iter_mut into_iter next next_back collect map filter filter_map flat_map enumerate zip
    unzip chain rev skip skip_while take_while map_while step_by fold try_fold for_each
    try_for_each any all find find_map position rposition count sum product min max min_by
    max_by min_by_key max_by_key last nth peekable cloned copied inspect partition cycle fuse
    by_ref
    len is_empty push push_str push_back push_front pop pop_back pop_front insert remove
    swap_remove extend extend_from_slice truncate clear contains contains_key starts_with
    ends_with strip_prefix strip_suffix split split_at split_off split_whitespace splitn rsplit
    split_once rsplit_once trim trim_start trim_end trim_matches lines chars char_indices bytes
    as_bytes as_str as_slice as_mut_slice as_ptr as_mut_ptr get get_mut get_unchecked first
    last first_mut last_mut sort sort_by sort_by_key sort_unstable sort_unstable_by
    sort_unstable_by_key dedup retain drain windows chunks chunks_exact join concat
    to_lowercase to_uppercase to_ascii_lowercase to_ascii_uppercase eq_ignore_ascii_case parse
    copy_from_slice clone_from_slice fill swap reserve capacity entry keys values values_mut
    or_insert or_insert_with or_default to_vec into_boxed_slice binary_search
    lock try_lock
    wrapping_add wrapping_sub wrapping_mul checked_add checked_sub checked_mul checked_div
    saturating_add saturating_sub saturating_mul overflowing_add pow abs signum clamp
    to_le_bytes to_be_bytes to_ne_bytes leading_zeros trailing_zeros count_ones
    is_power_of_two rotate_left rotate_right
    write_all write_fmt read_exact read_to_end read_to_string flush
    downcast_ref downcast_mut
    default from try_from from_str from_iter
";

/// C++: the standard containers, strings and smart pointers.
const CPP_METHODS: &str = "
    push_back emplace_back pop_back push_front emplace_front pop_front size empty begin end
    cbegin cend rbegin rend c_str data find insert emplace erase at reserve resize clear front
    back substr length count get reset release
";

/// C#: `List<T>`, `Dictionary`, `string`, `object` and LINQ.
const CSHARP_METHODS: &str = "
    Add AddRange Remove RemoveAt Insert Clear Contains ContainsKey TryGetValue IndexOf ToArray
    ToList ToDictionary Select SelectMany Where First FirstOrDefault Last LastOrDefault Single
    SingleOrDefault Any All Count OrderBy OrderByDescending ThenBy GroupBy Distinct Skip Take
    Sum Min Max Aggregate Concat Zip ToString Equals GetHashCode GetType Split Trim TrimStart
    TrimEnd Replace Substring StartsWith EndsWith ToLower ToUpper ToLowerInvariant
    ToUpperInvariant Format Join
";

/// Go: the standard library's interfaces and types that values of undeclared type (`x := f()`)
/// most often are — `error`, `fmt.Stringer`, `io`'s readers, writers and closers, `sync`'s
/// locks, `context.Context`, `sort.Interface`, `time.Time`, `bytes.Buffer`, `testing.T`,
/// `reflect.Value`, `net.Conn`, `bufio.Scanner`, `regexp.Regexp`, `hash.Hash` — by names
/// that a repository's own types seldom define otherwise (not `Get`, `Add`, `Run`, `Name`).
const GO_METHODS: &str = "
    Error String Read Write Close Seek Flush ReadByte WriteByte ReadRune WriteRune WriteString
    ReadString ReadBytes ReadFrom WriteTo Bytes Len Less Swap Lock Unlock RLock RUnlock Wait
    Done Err Deadline Load Store LoadOrStore CompareAndSwap Sub Before After Unix UnixNano
    IsZero Seconds Milliseconds Nanoseconds Errorf Fatalf Fatal Logf Helper Skip Skipf
    Parallel Cleanup TempDir Scan Text WriteHeader SetDeadline SetReadDeadline
    SetWriteDeadline LocalAddr RemoteAddr Kind Elem NumField NumMethod Interface IsNil IsValid
    MapIndex MapKeys CanSet CanInterface SetString SetInt SetUint SetFloat SetBool Encode
    Decode MatchString FindStringSubmatch FindAllString FindAllStringSubmatch ReplaceAllString
    Sum Reset Grow Truncate Fd Readdir Readdirnames
";

/// Ruby: `Array`, `Hash`, `String`, `Enumerable`, `Object`.
const RUBY_METHODS: &str = "
    each each_with_index each_with_object map select reject collect inject reduce find
    detect include? push pop shift unshift length size empty? any? all? none? keys values
    join split strip gsub sub to_s to_i to_f to_a to_h to_sym downcase upcase start_with?
    end_with? merge fetch first last freeze dup compact flatten uniq sort sort_by group_by
    min max sum count key? nil? is_a? respond_to? send tap
";

/// Ruby: methods of `Kernel`, `Module` and `Object` that code calls bare (`format`,
/// `include`, `autoload`, `attr_reader`, `new` in a class method): a repository's module
/// method of the name is not what such a call reaches unless the caller mixes that module in.
const RUBY_KERNEL: &str = "
    include extend prepend autoload require require_relative load new allocate Array Integer
    Float String Hash Rational Complex format sprintf printf puts print p pp putc warn raise
    fail loop lambda proc sleep rand srand exit abort at_exit catch throw class_eval
    module_eval instance_eval instance_exec class_exec module_exec define_method attr_reader
    attr_writer attr_accessor attr private public protected module_function private_constant
    public_constant alias_method remove_method undef_method method_defined? instance_method
    const_get const_set const_defined? send public_send __send__ instance_variable_get
    instance_variable_set instance_variable_defined? freeze frozen? dup clone tap then
    is_a? kind_of? instance_of? respond_to? object_id inspect singleton_class block_given?
    caller binding gets system spawn exec fork trap open select
";

/// Global objects of JavaScript and its runtimes: `JSON.parse` is not a repository's `parse`.
const JS_GLOBALS: &str = "
    JSON Math Object Array Promise Number String Boolean Date Reflect Symbol BigInt RegExp
    Error Map Set WeakMap WeakSet Intl console process window document navigator globalThis
    Buffer URL
";

/// Python's built-in types, used as qualifiers (`str.join`, `dict.fromkeys`).
const PYTHON_GLOBALS: &str = "str bytes list dict set frozenset tuple int float object type";

/// The C and C++ standard libraries' headers and POSIX's common ones, named by a single
/// component (`<stdio.h>`, `<vector>`): an `#include` of one of these is the system's, not a
/// namesake elsewhere in the repository (jemalloc's `msvc_compat/strings.h` is included only
/// on Windows, through an include directory the build adds). A header beside the including
/// file is still found first.
const C_STANDARD_HEADERS: &str = "
    assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h
    math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h
    stdio.h stdlib.h stdnoreturn.h string.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h
    aio.h dirent.h dlfcn.h fcntl.h fnmatch.h glob.h grp.h iconv.h langinfo.h libgen.h
    malloc.h netdb.h poll.h pthread.h pwd.h regex.h sched.h semaphore.h spawn.h strings.h
    syslog.h termios.h unistd.h utime.h wordexp.h alloca.h endian.h execinfo.h getopt.h
    windows.h winsock2.h io.h intrin.h
    algorithm any array atomic barrier bit bitset cassert cctype cerrno cfenv cfloat charconv
    chrono cinttypes climits clocale cmath codecvt compare complex concepts condition_variable
    coroutine csetjmp csignal cstdarg cstddef cstdint cstdio cstdlib cstring ctime cuchar
    cwchar cwctype deque exception execution expected filesystem format forward_list fstream
    functional future initializer_list iomanip ios iosfwd iostream istream iterator latch
    limits list locale map memory memory_resource mutex new numbers numeric optional ostream
    print queue random ranges ratio regex scoped_allocator semaphore set shared_mutex
    source_location span sstream stack stdexcept stop_token streambuf string string_view
    syncstream system_error thread tuple type_traits typeindex typeinfo unordered_map
    unordered_set utility valarray variant vector version
";

/// Functions (and function-like macros) of the C standard library and POSIX that C and C++
/// call bare: where no header the file includes defines one, the call is the system's, not a
/// namesake elsewhere in the repository (a wasm shim's `free`, a freestanding test's
/// `memcpy`).
const C_LIBRARY_FUNCTIONS: &str = "
    malloc calloc realloc free aligned_alloc posix_memalign
    memcpy memmove memset memcmp memchr strlen strnlen strcmp strncmp strcasecmp strncasecmp
    strcpy strncpy strcat strncat strchr strrchr strstr strdup strndup strtok strtok_r strerror
    strspn strcspn strpbrk strtol strtoul strtoll strtoull strtod strtof atoi atol atoll atof
    printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf asprintf dprintf
    scanf fscanf sscanf puts fputs fputc putc putchar getchar fgets fgetc getc ungetc
    fopen fdopen freopen fclose fread fwrite fflush fseek ftell rewind feof ferror clearerr
    perror remove rename tmpfile setvbuf
    exit _exit abort atexit qsort bsearch abs labs llabs div rand srand getenv setenv system
    time clock difftime mktime gmtime localtime strftime gettimeofday clock_gettime
    assert isalpha isdigit isxdigit isspace isalnum isupper islower isprint ispunct iscntrl
    toupper tolower
    sqrt pow exp log log2 log10 floor ceil round fabs fmod sin cos tan atan atan2 fmin fmax
    signal raise setjmp longjmp va_start va_end va_arg va_copy offsetof
    open close read write lseek pread pwrite fstat stat unlink mkdir rmdir dup dup2 pipe fork
    waitpid execvp getpid kill sysconf mmap munmap mprotect madvise usleep sleep nanosleep
    pthread_create pthread_join pthread_detach pthread_self pthread_mutex_init
    pthread_mutex_destroy pthread_mutex_lock pthread_mutex_trylock pthread_mutex_unlock
    pthread_cond_init pthread_cond_destroy pthread_cond_wait pthread_cond_signal
    pthread_cond_broadcast pthread_key_create pthread_getspecific pthread_setspecific
    dlopen dlsym dlclose errno
";

fn set(words: &'static str) -> HashSet<&'static str> {
    words.split_whitespace().collect()
}

struct Lists {
    python: HashSet<&'static str>,
    js: HashSet<&'static str>,
    rust: HashSet<&'static str>,
    cpp: HashSet<&'static str>,
    csharp: HashSet<&'static str>,
    go: HashSet<&'static str>,
    ruby: HashSet<&'static str>,
    js_globals: HashSet<&'static str>,
    python_globals: HashSet<&'static str>,
    c_headers: HashSet<&'static str>,
    c_functions: HashSet<&'static str>,
    ruby_kernel: HashSet<&'static str>,
}

static LISTS: LazyLock<Lists> = LazyLock::new(|| Lists {
    python: set(PYTHON_METHODS),
    js: set(JS_METHODS),
    rust: set(RUST_METHODS),
    cpp: set(CPP_METHODS),
    csharp: set(CSHARP_METHODS),
    go: set(GO_METHODS),
    ruby: set(RUBY_METHODS),
    js_globals: set(JS_GLOBALS),
    python_globals: set(PYTHON_GLOBALS),
    c_headers: set(C_STANDARD_HEADERS),
    c_functions: set(C_LIBRARY_FUNCTIONS),
    ruby_kernel: set(RUBY_KERNEL),
});

/// Whether `name` is a method of a built-in or standard type of `language` (see the module
/// documentation). Java has none here: its receivers' types are declared. (Go's are not
/// where `:=` binds a call's result.)
pub fn is_builtin_method(language: &str, name: &str) -> bool {
    let l = &*LISTS;
    match language {
        "python" => l.python.contains(name),
        "javascript" | "typescript" | "tsx" => l.js.contains(name),
        "rust" => l.rust.contains(name),
        "cpp" => l.cpp.contains(name),
        "csharp" => l.csharp.contains(name),
        "go" => l.go.contains(name),
        "ruby" => l.ruby.contains(name),
        _ => false,
    }
}

/// Whether `name`, read from a value whose type the file does not declare, is a property of
/// the language's own values far more often than a field of the repository's: JavaScript's
/// `length` of arrays, strings, functions and typed arrays (`arguments.length`,
/// `issue.values.length` had been a `length` member of TypeScript's own `lib.*.d.ts` or of
/// some class), `prototype`; Python's frame and code objects' attributes (`f_code`,
/// `co_filename`). (Python's dunder attributes have a rule of their own.)
pub fn is_builtin_property(language: &str, name: &str) -> bool {
    match language {
        "javascript" | "typescript" | "tsx" => matches!(
            name,
            "length" | "prototype" | "__proto__" | "byteLength" | "byteOffset"
        ),
        "python" => matches!(
            name,
            "f_code"
                | "f_back"
                | "f_locals"
                | "f_globals"
                | "f_lineno"
                | "f_lasti"
                | "co_filename"
                | "co_name"
                | "co_qualname"
                | "co_firstlineno"
                | "co_varnames"
                | "co_argcount"
                | "co_flags"
        ),
        _ => false,
    }
}

/// Whether `name` is a global object or built-in type of `language` that a call may be
/// qualified with (`JSON.parse`, `str.join`).
pub fn is_global_object(language: &str, name: &str) -> bool {
    let l = &*LISTS;
    match language {
        "javascript" | "typescript" | "tsx" => l.js_globals.contains(name),
        "python" => l.python_globals.contains(name),
        _ => false,
    }
}

/// Whether `name` is one of Go's predeclared types (`string`, `error`, `uint32`; the
/// analysis's [`crate::analyze::is_builtin_type`]), or the keyword of an unnamed type
/// (`interface{ Is(error) bool }`, `struct{…}`, `func(…)`), as a value's type is read: none
/// is the repository's.
pub fn is_go_predeclared_type(name: &str) -> bool {
    crate::analyze::is_builtin_type(crate::lang::Lang::Go, name)
        || matches!(
            name,
            "comparable" | "interface" | "struct" | "func" | "map" | "chan"
        )
}

/// Whether an `#include` path names a header of the C or C++ standard library or POSIX by a
/// single component (`stdio.h`, `vector`; not `sys/types.h` or `jemalloc/internal/util.h`).
pub fn is_c_standard_header(path: &str) -> bool {
    LISTS.c_headers.contains(path)
}

/// Whether a bare call in C or C++ names a function of the C standard library or POSIX
/// (`free`, `memcpy`, `pthread_mutex_lock`).
pub fn is_c_library_function(name: &str) -> bool {
    LISTS.c_functions.contains(name)
}

/// Whether a bare Ruby call names a method of `Kernel`, `Module` or `Object` (`format`,
/// `include`, `autoload`).
pub fn is_ruby_kernel_method(name: &str) -> bool {
    LISTS.ruby_kernel.contains(name)
}

/// Whether a call's receiver is a literal — a string (`", ".join(xs)`, `f"{x}".strip()`,
/// `b"ab".hex()`, `r#"…"#`), a number, a list, a map or a set: its type is a built-in one.
pub fn is_literal(receiver: &str) -> bool {
    let r = receiver.trim_start();
    // String prefixes: Python's f/b/r/u (and pairs), Rust's b/r/br with `#`s, C++'s L/u8.
    let unprefixed = match r.find(['"', '\'', '`']) {
        Some(i) if i <= 3 => {
            let prefix = &r[..i];
            prefix.chars().all(|c| "fbruFBRUL8#".contains(c))
        }
        _ => false,
    };
    unprefixed || r.starts_with(|c: char| c.is_ascii_digit() || c == '[' || c == '{')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_strings_numbers_and_collections() {
        for r in [
            "\", \"", "'-'", "f\"{x}\"", "b'ab'", "rb\"x\"", "r#\"x\"#", "`a`", "12", "[1, 2]",
            "{'a': 1}",
        ] {
            assert!(is_literal(r), "{r}");
        }
        for r in [
            "items",
            "self.items",
            "f(\"x\")",
            "format_string",
            "L",
            "Foo",
        ] {
            assert!(!is_literal(r), "{r}");
        }
    }

    #[test]
    fn lists_are_per_language() {
        assert!(is_builtin_method("python", "append"));
        assert!(!is_builtin_method("python", "run"));
        assert!(is_builtin_method("rust", "unwrap"));
        assert!(!is_builtin_method("rust", "fmt"));
        assert!(is_builtin_method("tsx", "forEach"));
        assert!(!is_builtin_method("go", "append"));
        assert!(is_builtin_method("go", "Error") && !is_builtin_method("go", "Get"));
        assert!(!is_builtin_method("java", "add"));
        assert!(is_builtin_property("typescript", "length"));
        assert!(is_builtin_property("python", "co_filename"));
        assert!(!is_builtin_property("typescript", "value"));
        assert!(!is_builtin_property("rust", "length"));
        assert!(is_global_object("javascript", "JSON"));
        assert!(!is_global_object("rust", "JSON"));
        assert!(is_c_standard_header("stdio.h"));
        assert!(is_c_standard_header("vector"));
        assert!(!is_c_standard_header("util.h"));
        assert!(!is_c_standard_header("sys/types.h"));
        assert!(is_c_library_function("memcpy") && !is_c_library_function("arena_new"));
    }
}
