// zlib, for SculptTesting's gunzip of recorded bodies (HAR archives that kept compressed bytes).
#include <zlib.h>
