# cmake -DVERSION_FILE=.../kassenConfigVersion.cmake -DWANT=x.y[.z] -P version_check.cmake
# prints "compatible" or "incompatible": what find_package(kassen x.y) would decide.
set(CMAKE_SIZEOF_VOID_P 8)
set(PACKAGE_FIND_VERSION "${WANT}")
string(REPLACE "." ";" _parts "${WANT}")
list(GET _parts 0 PACKAGE_FIND_VERSION_MAJOR)
list(GET _parts 1 PACKAGE_FIND_VERSION_MINOR)
include("${VERSION_FILE}")
if(PACKAGE_VERSION_COMPATIBLE)
    message("compatible")
else()
    message("incompatible")
endif()
