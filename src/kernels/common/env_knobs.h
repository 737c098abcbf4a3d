// The library's environment knobs: switches for benchmarking and debugging, read at each call
// (README, "Status and fallbacks"; docs/API.md). Unset or empty means the default. A value that is set but not
// understood is an error (flashssd::Error, naming the variable and what it takes): a typo once
// left the default in place and timed it silently.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>

#include "flashssd/flashssd.h"

namespace flashssd {

// The position of the knob's value in `choices`, or -1 where the knob is unset or empty.
inline int env_choice(const char* name, std::initializer_list<const char*> choices) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return -1;
  int index = 0;
  for (const char* choice : choices) {
    if (std::strcmp(value, choice) == 0) return index;
    ++index;
  }
  std::string allowed;  // (built only for the error: a knob is read at every launch)
  for (const char* choice : choices) allowed += (allowed.empty() ? "" : ", ") + std::string(choice);
  throw Error(std::string(name) + "=" + value + ": expected one of " + allowed + " (or unset)");
}

// An on / off knob ("1" / "0"): false where unset or empty.
inline bool env_flag(const char* name) { return env_choice(name, {"0", "1"}) == 1; }

// An integer knob in [1, max], or 0 where unset or empty.
inline int env_count(const char* name, int max) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return 0;
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(value, &end, 10);
  if (*end != '\0' || errno != 0 || n < 1 || n > max)
    throw Error(std::string(name) + "=" + value + ": expected an integer from 1 to " + std::to_string(max) + " (or unset)");
  return static_cast<int>(n);
}

}  // namespace flashssd
