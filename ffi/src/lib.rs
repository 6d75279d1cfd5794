//! C ABI of kassen (see include/kassen.h).
