# shellcheck shell=sh
# Sourced by scripts/cross-sysroot: how each of the board's libraries is built
# from Debian's source package, static, against musl, into the sysroot SR.
# Set before use: SR (the sysroot), GT (the cross compiler's triplet), MT (musl's
# triplet), SRC (the source packages), SRCS (their file names), WORK (scratch).
#
# musl, not glibc: a static glibc is 0.85 MB of a board binary (its NSS, iconv
# and dlopen machinery, which a static binary cannot use on the board anyway:
# getpwuid and getaddrinfo would want the build's glibc there); musl is about
# 0.1 MB and resolves /etc/hosts, DNS and /etc/passwd itself. Every library is
# rebuilt with it (a glibc-built .a calls glibc's own symbols).

# small over fast: a board binary is copied around and must stay under 2 MB
# and no unwind tables (C: nothing unwinds; 0.13 MB of eh_frame in the aarch64 file)
LIB_CFLAGS="-Os -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables"
LIB_CFLAGS="$LIB_CFLAGS -fstack-protector-strong"

# the cross compiler with musl's headers and start files, from musl-dev's own
# specs file with the sysroot's paths (and the kernel's headers after musl's);
# every link static, as the sysroot has no shared C library (and a link that is
# not puts libgcc.a before libc.a: armhf's libgcc then misses raise)
musl_specs() {
	sed -e "s|-isystem /usr/include/$MT|-isystem $SR/usr/include/$MT -isystem $SR/usr/include/$GT -isystem $SR/usr/include|g" \
		-e "s|/usr/lib/$MT|$SR/usr/lib/$MT|g" "$SR/usr/lib/$MT/musl-gcc.specs" >"$SR/musl-gcc.specs"
	CC="$GT-gcc --sysroot=$SR -specs=$SR/musl-gcc.specs -static"
	export PKG_CONFIG_LIBDIR="$SR/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$SR"
}

# unpack NAME: Debian's source package NAME (patches applied) in WORK/NAME
unpack() {
	_dsc=$(echo "$SRCS" | grep "^${1}_.*\.dsc$")
	say "building ${_dsc%.dsc} (Debian's source) static for $MT"
	rm -rf "${WORK:?}/$1"
	dpkg-source -x "$SRC/$_dsc" "$WORK/$1" >"$WORK/$1.log" 2>&1 ||
		fail "$1" "dpkg-source -x $_dsc"
}

# fail NAME WHAT: the end of NAME's log, one line saying WHAT failed
fail() {
	tail -30 "$WORK/$1.log" >&2
	die "building $1 for $MT: $2 failed (the log's end above)"
}

# autotools NAME SUBDIR CONFIGURE-ARGS...: configure, make in SUBDIR, install
autotools() {
	_n=$1 _sub=$2
	shift 2
	unpack "$_n"
	_d=$WORK/$_n
	# Debian's patches may touch configure.ac or Makefile.am (libmtp's cross.patch:
	# the udev files' rules, not built here): keep the shipped configure and
	# Makefile.in rather than regenerate them (no autotools here)
	_t=$(date +%s)
	touch -d "@$_t" "$_d/aclocal.m4"
	touch -d "@$((_t + 1))" "$_d/configure" "$_d/config.h.in"
	find "$_d" -name Makefile.in -exec touch -d "@$((_t + 2))" {} +
	(cd "$_d" && ./configure --host="$GT" --build="$(gcc -dumpmachine)" --prefix=/usr \
		--libdir=/usr/lib --disable-shared --enable-static "$@" \
		CC="$CC" CFLAGS="$LIB_CFLAGS" PKG_CONFIG=pkg-config) \
		>>"$WORK/$_n.log" 2>&1 || fail "$_n" configure
	(make -C "$_d/$_sub" -j"$(nproc)" && make -C "$_d/$_sub" install DESTDIR="$SR" &&
		install -D -m 644 "$_d"/*.pc -t "$SR/usr/lib/pkgconfig") >>"$WORK/$_n.log" 2>&1 ||
		fail "$_n" make
}

# cmake NAME TARGET CMAKE-ARGS...: configure for the board, build TARGET
cmake_build() {
	_n=$1 _target=$2
	shift 2
	unpack "$_n"
	(cmake -S "$WORK/$_n" -B "$WORK/$_n/b" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="${GT%%-*}" \
		-DCMAKE_C_COMPILER="$GT-gcc" -DCMAKE_C_FLAGS="${CC#* } $LIB_CFLAGS" -DCMAKE_BUILD_TYPE=None -DCMAKE_INSTALL_PREFIX=/usr \
		-DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_FIND_ROOT_PATH="$SR" -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER \
		-DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY "$@" &&
		cmake --build "$WORK/$_n/b" --target "$_target" -j"$(nproc)") >>"$WORK/$_n.log" 2>&1 ||
		fail "$_n" cmake
}

build_liburing() {
	unpack liburing
	_d=$WORK/liburing
	(cd "$_d" && ./configure --cc="$CC" --prefix=/usr --libdir=/usr/lib --libdevdir=/usr/lib &&
		make -C src liburing.a ENABLE_SHARED=0 CFLAGS="$LIB_CFLAGS" &&
		make install ENABLE_SHARED=0 DESTDIR="$SR") >>"$WORK/liburing.log" 2>&1 || fail liburing make
}

build_json_c() {
	cmake_build json-c all -DBUILD_SHARED_LIBS=OFF -DBUILD_STATIC_LIBS=ON \
		-DDISABLE_WERROR=ON -DBUILD_TESTING=OFF -DDISABLE_EXTRA_LIBS=ON
	DESTDIR=$SR cmake --install "$WORK/json-c/b" >>"$WORK/json-c.log" 2>&1 || fail json-c install
}

# cmocka, for the unit tests (its static library only). cmocka.h defines
# uintptr_t itself unless told the C library has (it guesses 32 bits where musl
# does not define __WORDSIZE): it is told so, and so is every test (its .pc)
CMOCKA_CFLAGS="-D_UINTPTR_T -D_UINTPTR_T_DEFINED"
build_cmocka() {
	_flags=$LIB_CFLAGS
	LIB_CFLAGS="$LIB_CFLAGS $CMOCKA_CFLAGS"
	cmake_build cmocka cmocka-static -DWITH_STATIC_LIB=ON -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF
	LIB_CFLAGS=$_flags
	_d=$WORK/cmocka
	_v=$(sed -n 's/^project(cmocka VERSION \([0-9.]*\).*/\1/p' "$_d/CMakeLists.txt")
	(install -D -m 644 "$_d/include/cmocka.h" "$_d/include/cmocka_pbc.h" -t "$SR/usr/include" &&
		install -D -m 644 "$_d/b/src/libcmocka-static.a" "$SR/usr/lib/libcmocka.a" &&
		pc cmocka "The cmocka unit testing library" "$_v" -lcmocka "$CMOCKA_CFLAGS") >>"$WORK/cmocka.log" 2>&1 ||
		fail cmocka install
}

# pc NAME DESCRIPTION VERSION LIBS [CFLAGS]: a pkg-config file in the sysroot
pc() {
	printf 'prefix=/usr\nlibdir=${prefix}/lib\nincludedir=${prefix}/include\n\nName: %s\nDescription: %s\nVersion: %s\nLibs: -L${libdir} %s\nCflags: -I${includedir} %s\n' \
		"$1" "$2" "$3" "$4" "${5:-}" >"$SR/usr/lib/pkgconfig/$1.pc"
}

# SQLite: the amalgamation (made with this machine's gcc and tclsh, as upstream
# does), compiled with Debian's behaviour flags but none of its extensions (FTS,
# R-tree, sessions, dbstat: 0.5 MB that usbperf's history never uses), and no
# extension loading (no dlopen in a static binary); nor the parts of SQLite's
# recommended omissions usbperf never calls (deprecated API, shared cache,
# progress callbacks, column decltypes): 6.6 KB of the aarch64 file (2026-12-06)
SQLITE_FLAGS="-DSQLITE_THREADSAFE=1 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_SECURE_DELETE
	-DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_USE_URI=1 -DSQLITE_MAX_SCHEMA_RETRY=25
	-DSQLITE_MAX_VARIABLE_NUMBER=250000 -DSQLITE_DEFAULT_MEMSTATUS=0 -DHAVE_USLEEP=1
	-DHAVE_FDATASYNC=1 -DHAVE_LOCALTIME_R=1 -DHAVE_GMTIME_R=1 -DHAVE_POSIX_FALLOCATE=1
	-DHAVE_ISNAN=1 -DSQLITE_OMIT_DEPRECATED -DSQLITE_OMIT_SHARED_CACHE
	-DSQLITE_OMIT_PROGRESS_CALLBACK -DSQLITE_OMIT_DECLTYPE"
# and the SQL no statement of usbperf's writes (its history has no views, no
# CTEs, no window functions, no compound SELECTs, no AUTOINCREMENT, no date,
# math or JSON functions, no ANALYZE, REINDEX or EXPLAIN) nor any C call it
# makes (UTF-16, blobs read in pieces, tracing, the authorizer, get_table,
# complete): 88 KB of the aarch64 file (SQLite's share from 562 to 474 KB,
# 2026-12-07). Some of these change SQLite's grammar, so they go to the
# amalgamation's configure too (its OPT_FEATURE_FLAGS: the parser is made
# without them). Kept: foreign keys (their ON DELETE CASCADE is SQLite's
# trigger code), ATTACH and VACUUM (3.40 built without them leaves two of its
# own functions undefined), virtual tables (without them its parser has no
# ALTER TABLE ... ADD COLUMN, which the migrations use, nor pragma_table_info).
# tests/cross/run saves a run with the board binary and reads it back.
SQLITE_OMIT="-DSQLITE_OMIT_WINDOWFUNC -DSQLITE_OMIT_EXPLAIN -DSQLITE_OMIT_CTE
	-DSQLITE_OMIT_VIEW -DSQLITE_OMIT_ANALYZE -DSQLITE_OMIT_REINDEX
	-DSQLITE_OMIT_DATETIME_FUNCS -DSQLITE_OMIT_JSON -DSQLITE_OMIT_AUTHORIZATION
	-DSQLITE_OMIT_COMPILEOPTION_DIAGS -DSQLITE_OMIT_GET_TABLE -DSQLITE_OMIT_COMPLETE
	-DSQLITE_OMIT_UTF16 -DSQLITE_OMIT_TCL_VARIABLE -DSQLITE_OMIT_INCRBLOB
	-DSQLITE_OMIT_TRACE -DSQLITE_OMIT_COMPOUND_SELECT
	-DSQLITE_OMIT_AUTOINCREMENT"
build_sqlite3() {
	unpack sqlite3
	_d=$WORK/sqlite3
	mkdir -p "$_d/native"
	# shellcheck disable=SC2086
	(cd "$_d/native" && CC=gcc CFLAGS="$(echo $SQLITE_OMIT)" ../configure --disable-tcl --disable-math &&
		make sqlite3.c) >>"$WORK/sqlite3.log" 2>&1 ||
		fail sqlite3 "the amalgamation (make sqlite3.c)"
	_v=$(cat "$_d/VERSION")
	# shellcheck disable=SC2086
	($CC $LIB_CFLAGS $SQLITE_FLAGS $SQLITE_OMIT -c "$_d/native/sqlite3.c" -o "$_d/sqlite3.o" &&
		"$GT-ar" rcs "$SR/usr/lib/libsqlite3.a" "$_d/sqlite3.o" &&
		install -D -m 644 "$_d/native/sqlite3.h" "$_d/src/sqlite3ext.h" -t "$SR/usr/include" &&
		pc sqlite3 "SQL database engine" "$_v" -lsqlite3) >>"$WORK/sqlite3.log" 2>&1 ||
		fail sqlite3 "compiling sqlite3.c"
}

build_libs() {
	musl_specs
	mkdir -p "$SR/usr/lib/pkgconfig"
	build_liburing
	build_json_c
	build_sqlite3
	autotools libusb-1.0 . --disable-udev --disable-examples-build --disable-tests-build
	# the library alone: the tools and the udev files would run target programs
	autotools libmtp src --disable-mtpz --disable-doxygen
	build_cmocka
	find "$SR" -name '*.la' -delete
}
