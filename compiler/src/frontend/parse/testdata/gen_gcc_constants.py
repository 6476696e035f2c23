# Generates gcc_constants.tsv: random integer constant expressions, typed and folded by
# gcc 12 (-std=c11 -S, -m64 and -m32; expressions gcc warns about are dropped).
# Columns: expression, type code and value as (unsigned long long) on x86_64, same on i686.
# Type codes: the _Generic list below (0 _Bool ... 11 unsigned long long).
# Usage: python3 gen_gcc_constants.py 400 > gcc_constants.tsv
import random, subprocess, re, sys
random.seed(12345)
TYPES = ["_Bool","char","signed char","unsigned char","short","unsigned short","int","unsigned int","long","unsigned long","long long","unsigned long long"]
LITS = ["0","1","7","-1","255","0x7f","0x80","0xff","0x7fff","0xffff","2147483647","2147483648","0x7fffffff","0x80000000","0xffffffff","4294967295","4294967296","0x100000000","1u","1U","1l","1L","1ul","1ll","1ull","0x7fffffffffffffff","9223372036854775807","0x8000000000000000","0xffffffffffffffff","1000000007","'a'","'\\377'","100u","3000000000","-2147483648","65535u","0177","0377u","12345678901","-5","-3L"]
BIN = ["+","-","*","/","%","<<",">>","<",">","<=",">=","==","!=","&","|","^","&&","||"]
def gen(d):
    r = random.random()
    if d <= 0 or r < 0.25:
        return random.choice(LITS)
    if r < 0.4:
        return "(%s)(%s)" % (random.choice(TYPES), gen(d-1))
    if r < 0.5:
        return "%s(%s)" % (random.choice(["-","~","!","+"]), gen(d-1))
    if r < 0.55:
        return "(%s ? %s : %s)" % (gen(d-1), gen(d-1), gen(d-1))
    if r < 0.6:
        return "sizeof(%s)" % random.choice(TYPES + ["1L", "(char)1", "1.0", "\"abc\""])
    return "(%s %s %s)" % (gen(d-1), random.choice(BIN), gen(d-1))
gen_code = "_Generic((X), _Bool:0, char:1, signed char:2, unsigned char:3, short:4, unsigned short:5, int:6, unsigned int:7, long:8, unsigned long:9, long long:10, unsigned long long:11)"
def compile_one(e, m):
    src = "unsigned long long v = (unsigned long long)(%s);\nint t = %s;\n" % (e, gen_code.replace("X", e))
    open("x.c","w").write(src)
    p = subprocess.run(["gcc","-std=c11","-O0",m,"-S","-o","x.s","x.c"], capture_output=True, text=True, timeout=30)
    if p.returncode != 0 or "warning" in p.stderr:
        return None
    s = open("x.s").read()
    vals = re.findall(r"^\s*\.(quad|long|value|byte|zero)\s+(\S+)", s, re.M)
    # v first then t
    nums = []
    for k, x in vals:
        nums.append((k, int(x, 0)))
    if m == "-m64":
        if nums[0][0] == "zero":
            v = 0; rest = nums[1:]
        else:
            v = nums[0][1] & (2**64-1); rest = nums[1:]
    else:
        if nums[0][0] == "zero":
            v = 0; rest = nums[1:]
        else:
            v = (nums[0][1] & 0xffffffff) | ((nums[1][1] & 0xffffffff) << 32); rest = nums[2:]
    t = rest[0][1] if rest and rest[0][0] == "long" else 0
    return v, t
out = []
n = int(sys.argv[1])
tries = 0
while len(out) < n and tries < n * 5:
    tries += 1
    e = gen(random.randint(1, 4))
    a = compile_one(e, "-m64")
    b = compile_one(e, "-m32")
    if a is None or b is None:
        continue
    out.append((e, a, b))
for e, (v64, t64), (v32, t32) in out:
    print("%s\t%d\t%d\t%d\t%d" % (e, t64, v64, t32, v32))
