// Device dispatch (work in progress: replaced by the sm80/sm90 dispatch).
#include "api/problem.h"

namespace flashssd {
void device_forward(const SsdParams&, const Problem&) {
  throw NotSupported("flashssd: the GPU path is not built yet");
}
}  // namespace flashssd
