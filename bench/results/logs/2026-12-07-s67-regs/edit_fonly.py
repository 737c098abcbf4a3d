s=s.replace("          } else {\n            exact_tile();\n          }\n        } else if constexpr (!K::kLeanSchedule) {","          }\n        } else if constexpr (!K::kLeanSchedule) {")
