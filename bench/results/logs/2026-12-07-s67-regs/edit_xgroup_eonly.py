exec(open('edit_xgroup.py').read())
exec(open('edit_eonly.py').read())
