/*
** writable_data_baseline.c: a module with no data, compiled and linked like bloom.so, so that
** check_writable_data.sh can tell the writable data the toolchain adds from the extension's.
*/

/* Does nothing: ISO C wants a translation unit to declare something. */
int writable_data_baseline(void);

int writable_data_baseline(void) {
    return 0;
}
