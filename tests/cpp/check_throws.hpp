// CHECK_THROWS for the C++ tests (include after ../c/harness.h and kassen.hpp).
#ifndef KASSEN_CHECK_THROWS_HPP
#define KASSEN_CHECK_THROWS_HPP

#include <cstdio>
#include <string>

// Runs `expr`, which must throw kassen::Error with `status` and a non-empty message.
#define CHECK_THROWS(expr, expected)                                                                  \
    do {                                                                                            \
        try {                                                                                       \
            (void)(expr);                                                                           \
            g_failed++;                                                                             \
            std::fprintf(stderr, "%s:%d: %s did not throw\n", __FILE__, __LINE__, #expr);           \
        } catch (const kassen::Error &e_) {                                                         \
            bool ok_ = e_.status() == (expected) && e_.code() == static_cast<int32_t>(expected) &&      \
                       !e_.message().empty() && std::string(e_.status_name()) == kassen_status_name(expected); \
            if (ok_) {                                                                              \
                g_passed++;                                                                         \
            } else {                                                                                \
                g_failed++;                                                                         \
                std::fprintf(stderr, "%s:%d: %s threw %s, expected %s\n", __FILE__, __LINE__, #expr, \
                             e_.what(), kassen_status_name(expected));                                \
            }                                                                                       \
        }                                                                                           \
    } while (0)

#endif // KASSEN_CHECK_THROWS_HPP
