// SPDX-License-Identifier: GPL-2.0-only
/*
 * The init of `slubtiny footprint boot`: the only program of its
 * initramfs. slubtiny compiles it at run time with the kernel's compiler,
 *
 *	${CROSS_COMPILE}gcc -static -nostdlib -ffreestanding -fno-pie -no-pie -Os
 *
 * so it needs no libc of the target: a few raw system calls, per arch. It
 * mounts /proc, waits until the kernel is idle (MemFree: and Slab: of
 * /proc/meminfo unchanged over STABLE_READS reads, 200 ms apart, at most
 * MAX_READS), prints /proc/uptime, /proc/meminfo and /proc/slabinfo (when
 * the kernel has it) between markers on the console and powers off.
 */
#include <asm/unistd.h>

#define AT_FDCWD	-100
#define O_RDONLY	0
#define STABLE_READS	5
#define MAX_READS	100

#define BEGIN	"\n=== slubtiny-boot begin ===\n"
#define END	"=== slubtiny-boot end ===\n"

#if defined(__x86_64__)
static long sys5(long n, long a, long b, long c, long d, long e)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}
__asm__(".text\n.global _start\n_start:\n"
	"	xor %rbp, %rbp\n	and $-16, %rsp\n	call boot_main\n	hlt\n");
#elif defined(__aarch64__)
static long sys5(long n, long a, long b, long c, long d, long e)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;

	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4)
			 : "memory");
	return x0;
}
__asm__(".text\n.global _start\n_start:\n	bl boot_main\n	b .\n");
#elif defined(__arm__)
static long sys5(long n, long a, long b, long c, long d, long e)
{
	register long r7 __asm__("r7") = n;
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	register long r3 __asm__("r3") = d;
	register long r4 __asm__("r4") = e;

	__asm__ volatile("swi #0"
			 : "+r"(r0)
			 : "r"(r7), "r"(r1), "r"(r2), "r"(r3), "r"(r4)
			 : "memory");
	return r0;
}
__asm__(".text\n.global _start\n_start:\n	bl boot_main\n	b .\n");
#elif defined(__riscv)
static long sys5(long n, long a, long b, long c, long d, long e)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	register long a3 __asm__("a3") = d;
	register long a4 __asm__("a4") = e;

	__asm__ volatile("ecall"
			 : "+r"(a0)
			 : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4)
			 : "memory");
	return a0;
}
/*
 * In a section of its own: a no-MMU kernel runs the init as a FLAT binary
 * whose entry is the first byte after the header (see compile_init()).
 */
__asm__(".section .text.start,\"ax\",@progbits\n.global _start\n_start:\n"
	"	call boot_main\n	j .\n.text\n");
#else
#error "slubtiny boot init: no system calls for this architecture"
#endif

struct ts {
	long sec, nsec;
};

static unsigned long len(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static void put(const char *s, unsigned long n)
{
	long w;

	while (n) {
		w = sys5(__NR_write, 1, (long)s, n, 0, 0);
		if (w <= 0)
			return;
		s += w;
		n -= w;
	}
}

static void puts1(const char *s)
{
	put(s, len(s));
}

/* The whole of a /proc file into @buf (NUL-terminated); its length or < 0. */
static long slurp(const char *path, char *buf, unsigned long size)
{
	long fd = sys5(__NR_openat, AT_FDCWD, (long)path, O_RDONLY, 0, 0), n, got = 0;

	if (fd < 0)
		return fd;
	while ((unsigned long)got < size - 1 &&
	       (n = sys5(__NR_read, fd, (long)(buf + got), size - 1 - got, 0, 0)) > 0)
		got += n;
	sys5(__NR_close, fd, 0, 0, 0, 0);
	buf[got] = 0;
	return got;
}

/* The number after "@key:" in meminfo text, or -1. */
static long field(const char *text, const char *key)
{
	unsigned long kl = len(key), i;
	const char *p = text;
	long v;

	while (*p) {
		for (i = 0; i < kl && p[i] == key[i]; i++)
			;
		if (i == kl && p[kl] == ':') {
			p += kl + 1;
			while (*p == ' ')
				p++;
			for (v = 0; *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (*p - '0');
			return v;
		}
		while (*p && *p++ != '\n')
			;
	}
	return -1;
}

static void dump(const char *title, const char *path, char *buf, unsigned long size)
{
	long n = slurp(path, buf, size);

	if (n < 0)
		return;
	puts1("--- ");
	puts1(title);
	puts1("\n");
	put(buf, n);
	if (n && buf[n - 1] != '\n')
		puts1("\n");
}

static char buf[1 << 16];

void boot_main(void)
{
	struct ts wait = { 0, 200 * 1000 * 1000 };
	long free_kb = -2, slab_kb = -2, f, s;
	int stable = 0, reads;

	sys5(__NR_mount, (long)"proc", (long)"/proc", (long)"proc", 0, 0);
	for (reads = 0; reads < MAX_READS && stable < STABLE_READS; reads++) {
		sys5(__NR_nanosleep, (long)&wait, 0, 0, 0, 0);
		if (slurp("/proc/meminfo", buf, sizeof(buf)) < 0)
			break;
		f = field(buf, "MemFree");
		s = field(buf, "Slab");
		stable = f == free_kb && s == slab_kb ? stable + 1 : 0;
		free_kb = f;
		slab_kb = s;
	}
	puts1(BEGIN);
	puts1(stable >= STABLE_READS ? "--- idle\n" : "--- not idle\n");
	dump("/proc/uptime", "/proc/uptime", buf, sizeof(buf));
	dump("/proc/meminfo", "/proc/meminfo", buf, sizeof(buf));
	dump("/proc/slabinfo", "/proc/slabinfo", buf, sizeof(buf));
	puts1(END);
	/* LINUX_REBOOT_MAGIC1, MAGIC2, LINUX_REBOOT_CMD_POWER_OFF */
	sys5(__NR_reboot, 0xfee1dead, 672274793, 0x4321fedc, 0, 0);
	sys5(__NR_exit, 0, 0, 0, 0, 0);
}
