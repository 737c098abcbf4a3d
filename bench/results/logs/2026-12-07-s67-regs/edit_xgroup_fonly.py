exec(open('edit_xgroup.py').read())
exec(open('edit_fonly_after_elean.py').read())
