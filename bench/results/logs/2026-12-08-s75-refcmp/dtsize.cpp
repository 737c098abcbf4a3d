#include "flashssd/flashssd.h"
namespace flashssd {
int dtype_size(DType t) {
  switch (t) { case DType::kInt64: return 8; case DType::kFloat32: case DType::kInt32: return 4; default: return 2; }
}
}
