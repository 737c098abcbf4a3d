exec(open('edit_f3.py').read())
exec(open('edit_fonly_after_elean.py').read())
