// Calls the installed library through its public header only: a tiny problem
// on host memory (the float64 reference path) and one rejected argument.
#include <cmath>
#include <cstdio>
#include <vector>

#include <flashssd/flashssd.h>

int main() {
  using flashssd::DType;
  const int64_t b = 1, T = 4, H = 2, P = 2, G = 1, N = 2;
  std::vector<float> x(b * T * H * P, 0.5f), dt(b * T * H, 0.1f), A(H, -1.0f);
  std::vector<float> B(b * T * G * N, 1.0f), C(b * T * G * N, 1.0f), y(b * T * H * P, NAN);

  flashssd::SsdParams p;
  p.x = flashssd::make_view(x.data(), DType::kFloat32, {b, T, H, P});
  p.dt = flashssd::make_view(dt.data(), DType::kFloat32, {b, T, H});
  p.A = flashssd::make_view(A.data(), DType::kFloat32, {H});
  p.B = flashssd::make_view(B.data(), DType::kFloat32, {b, T, G, N});
  p.C = flashssd::make_view(C.data(), DType::kFloat32, {b, T, G, N});
  p.y = flashssd::make_view(y.data(), DType::kFloat32, {b, T, H, P});
  flashssd::ssd_forward(p);

  // Token 0 from a zero state: y = dt * (B . C) * x = 0.1 * 2 * 0.5.
  if (std::fabs(y[0] - 0.1f) > 1e-6f) {
    std::printf("consumer: unexpected y[0] = %g\n", y[0]);
    return 1;
  }
  p.chunk_size = -1;
  try {
    flashssd::ssd_forward(p);
    std::printf("consumer: chunk_size = -1 was accepted\n");
    return 1;
  } catch (const flashssd::Error& e) {
    std::printf("consumer: rejected as expected: %s\n", e.what());
  }
  std::printf("consumer: flashssd %s OK\n", flashssd::version());
  return 0;
}
