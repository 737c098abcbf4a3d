exec(open('edit_f3.py').read())
exec(open('edit_scalars_only.py').read())
