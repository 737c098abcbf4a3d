import re,sys
from collections import Counter
lines=open(sys.argv[1]).read().split('\n')
want=sys.argv[2]  # substring of the kernel name
cur=None; src=None; rows=[]
for l in lines:
    m=re.match(r'\s*\.text\.(\S+):',l)
    if m: cur=m.group(1)
    m=re.search(r'line (\d+)',l) if '//##' in l else None
    if m:
        f=re.search(r'File "([^"]+)"',l); src=(f.group(1).split('/')[-1] if f else '?', int(m.group(1)))
    if cur and want in cur:
        m=re.search(r'\b(STL|LDL)(\.\w+)*\s',l)
        if m: rows.append((m.group(1),src))
c=Counter(rows)
for (op,s),n in sorted(c.items(), key=lambda t:(t[0][1] or ('',0),t[0][0])): print(n,op,s)
print('total',len(rows))
