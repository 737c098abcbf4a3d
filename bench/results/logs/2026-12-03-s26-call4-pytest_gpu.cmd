PYTHONPATH=out/dev/build-gpu/python:third_party_bench FLASHSSD_PYTEST_REPORT=$OUT/pytest_gpu.json LD_LIBRARY_PATH=$PWD/out/dev/build-gpu timeout 440 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider
# (session 26 call 4, library and Python module of 68bff5469dd3)
