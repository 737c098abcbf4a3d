exec(open('edit_eserial.py').read())
exec(open('edit_scalars_only.py').read())
