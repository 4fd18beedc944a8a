#!/usr/bin/env python3
"""permessage-deflate ratios with and without context takeover for a few value shapes, zlib set
as the server's `.lean` policy sets it (window 12 bits, level 6, memory level 5)."""
import zlib, json, random
random.seed(1)
def deflate_msgs(msgs, takeover, wbits=12, level=6, mem=5):
    c = zlib.compressobj(level, zlib.DEFLATED, -wbits, mem)
    total = 0
    for m in msgs:
        if not takeover:
            c = zlib.compressobj(level, zlib.DEFLATED, -wbits, mem)
        out = c.compress(m) + c.flush(zlib.Z_SYNC_FLUSH)
        if out.endswith(b"\x00\x00\xff\xff"): out = out[:-4]
        total += len(out)
    return total
shapes = {
 "counter": lambda i: b'{"stream":"b","value":%d}' % i,
 "bench 64B": lambda i: (b'{"stream":"b","value":"%08d ' % i) + b'x'*30 + b'"}',
 "ticker": lambda i: json.dumps({"stream":"prices.EURUSD","value":{"bid":round(1.08+random.random()/100,5),"ask":round(1.08+random.random()/100,5),"ts":1764130000000+i}}).encode(),
 "object 500B": lambda i: json.dumps({"stream":"orders","value":{"id":i,"items":[{"sku":"SKU-%d"%random.randint(1,99),"qty":random.randint(1,5),"price":round(random.random()*100,2),"name":"widget model %d"%random.randint(1,20)} for _ in range(6)],"customer":{"name":"Customer %d"%random.randint(1,1000),"country":"DE"}}}).encode(),
 "object 4KB": lambda i: json.dumps({"stream":"book","value":[{"px":round(100+random.random(),3),"qty":random.randint(1,1000),"side":random.choice(["bid","ask"])} for _ in range(90)]}).encode(),
}
print("| shape | bytes/msg | ratio, context takeover | ratio, no context takeover |")
print("|---|---|---|---|")
for name, f in shapes.items():
    msgs = [f(i) for i in range(2000)]
    plain = sum(len(m) for m in msgs)
    a = deflate_msgs(msgs, True); b = deflate_msgs(msgs, False)
    print(f"| {name} | {plain//len(msgs)} | {plain/a:.2f}:1 | {plain/b:.2f}:1 |")
