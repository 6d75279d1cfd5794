/* Checks that the installed library matches the installed header: the ABI version a
 * frontend compares at startup and the version string against the version macros. */
#include <stdio.h>
#include <string.h>

#include <kassen.h>

int main(void) {
    char expected[64];
    snprintf(expected, sizeof expected, "%d.%d.%d", KASSEN_VERSION_MAJOR, KASSEN_VERSION_MINOR,
             KASSEN_VERSION_PATCH);
    int failed = 0;
    if (kassen_abi_version() != KASSEN_ABI_VERSION) {
        fprintf(stderr, "ABI version %u, header says %d\n", kassen_abi_version(), KASSEN_ABI_VERSION);
        failed++;
    }
    if (strcmp(kassen_version(), expected) != 0) {
        fprintf(stderr, "library version %s, header says %s\n", kassen_version(), expected);
        failed++;
    }
    printf("kassen %s, ABI %u\n", kassen_version(), kassen_abi_version());
    printf("%d passed, %d failed\n", 2 - failed, failed);
    return failed != 0;
}
