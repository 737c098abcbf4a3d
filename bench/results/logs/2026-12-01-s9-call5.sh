set -u
mkdir -p $OUT/ds
FLASHSSD_COMMIT=e8186c6d4a4b OUT=$OUT/ds bash scripts/device_session.sh out/dev/build-gpu > $OUT/session.log 2>&1
echo "session rc=$?"
cat $OUT/session.log | tail -60
cd $OUT/ds && tar czf ../logs.tgz *.log && rm -f *.log && ls
