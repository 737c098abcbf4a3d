# (After edit_elean: the exact tiles' lean body removed, so exact tiles skip their schedule: a bound.)
import re
pat = re.compile(r"          \} else \{\n            if constexpr \(kOneBuffer\) store_previous_y\(\);.*?retire_all\(\);\n          \}\n(        \} else if constexpr \(!K::kLeanSchedule\) \{)", re.S)
s, n = pat.subn(r"          }\n\1", s)
assert n == 1
