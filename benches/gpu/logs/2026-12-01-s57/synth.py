import sys, random
out, size, seed, variant = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
r = random.Random(seed)
progs = ["chrome.exe *64", "QQProtectUpd.exe", "svchost.exe", "Dropbox.exe", "git-remote-https.exe *64"]
hosts = ["qd-update.qq.com", "pubads.g.doubleclick.net", "r8---sn-i3b7knez.googlevideo.com", "clients1.google.com", "www.example.org"]
lines = []
total = 0
while total < size:
    if variant == "prox":
        t = "[07.%02d %02d:%02d:%02d] %s - %s:%d " % (r.randint(1,31), r.randint(0,23), r.randint(0,59), r.randint(0,59), r.choice(progs), r.choice(hosts), r.choice([80,443,8080]))
        k = r.random()
        if k < 0.4:
            t += "open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS"
        elif k < 0.75:
            t += "close, %d bytes (%.1f KB) sent, %d bytes (%.1f KB) received, lifetime %02d:%02d" % (r.randint(0,99999), r.random()*99, r.randint(0,99999), r.random()*99, r.randint(0,59), r.randint(0,59))
        else:
            t += "error : Could not connect through proxy proxy.cse.cuhk.edu.hk:5070 - Proxy server cannot establish a connection with the target, status code 403"
    else:
        n = r.randint(1, 400)
        words = []
        while sum(len(w) + 1 for w in words) < n:
            words.append(r.choice(["open", "close,", "error", ":", "proxy", "a:b", "x=1", "bytes", "HTTPS", "%d" % r.randint(0, 9999)]))
        t = " ".join(words)
    lines.append(t)
    total += len(t) + 1
open(out, "w").write("\n".join(lines) + "\n")
