exec(open('edit_f2.py').read())
exec(open('edit_fonly.py').read())
