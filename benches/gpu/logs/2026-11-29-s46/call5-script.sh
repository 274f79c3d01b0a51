#!/usr/bin/env bash
# session 46, call 5: printed lines of a chunk unsure only of lines past
# ASCII: those lines judged on the CPU and dropped from the marks unless
# they match, the other marks printed as they are. loghub's templates
# `-w -n` over call 3's corpus (a UTF-8 line every 16,000 lines), into
# wc -l, base b081ae1 against new, 2 rounds; md5 of each output once.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G; U=/dev/shm/u8; mkdir -p $U
ls $L | xargs -P16 -I{} sh -c "awk 'NR%16000==0 {print \$0 \" café ✓\"; next} {print}' $L/{} > $U/{}"
echo "corpora after $SECONDS s" >> $S
T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep
for r in 1 2; do
  for v in base new; do
    /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt ${!v} -j16 -w -n -E -f $T -r $U 2>$X/err.txt | wc -l > $X/n.txt
    echo "u8 templates -w -n auto $v: $(cat $X/t.txt) lines $(cat $X/n.txt) $(head -c 200 $X/err.txt)" >> $S
  done
done
$new --stats -j16 -w -n -E -f $T -r $U 2>$X/err.txt | wc -l > /dev/null; grep -E 'unsure|fallback' $X/err.txt >> $S
for v in base new; do
  echo "md5 -w -n $v: $(${!v} -j16 -w -n -E -f $T -r $U | md5sum)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
