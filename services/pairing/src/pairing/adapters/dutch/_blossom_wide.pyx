# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""The compiled blossom matching of ``_blossom`` (same code, ``_blossom_core.pxi``) for the
engine's wider weights: duals and slacks in 384-bit two's-complement integers (``Wide``, six
64-bit limbs, with the few operations the algorithm uses). Slower than the 128-bit build,
much faster than networkx; ``MAX_BITS`` bounds the weights it takes (``None`` beyond).
"""

cdef extern from *:
    """
    #include <cstdint>
    struct Wide {
        static const int LIMBS = 6;
        uint64_t w[LIMBS];  // little-endian limbs, two's complement
        Wide() {}
        Wide(long long v) {
            uint64_t fill = v < 0 ? ~0ULL : 0ULL;
            w[0] = (uint64_t)v;
            for (int i = 1; i < LIMBS; ++i) w[i] = fill;
        }
    };
    static inline Wide operator+(const Wide &a, const Wide &b) {
        Wide r;
        unsigned __int128 carry = 0;
        for (int i = 0; i < Wide::LIMBS; ++i) {
            carry += (unsigned __int128)a.w[i] + b.w[i];
            r.w[i] = (uint64_t)carry;
            carry >>= 64;
        }
        return r;
    }
    static inline Wide operator-(const Wide &a, const Wide &b) {
        Wide r;
        uint64_t borrow = 0;
        for (int i = 0; i < Wide::LIMBS; ++i) {
            unsigned __int128 d = (unsigned __int128)a.w[i] - b.w[i] - borrow;
            r.w[i] = (uint64_t)d;
            borrow = (uint64_t)(d >> 64) & 1;
        }
        return r;
    }
    static inline Wide operator*(long long k, const Wide &a) {  // k >= 0
        Wide r;
        unsigned __int128 carry = 0;
        for (int i = 0; i < Wide::LIMBS; ++i) {
            carry += (unsigned __int128)a.w[i] * (uint64_t)k;
            r.w[i] = (uint64_t)carry;
            carry >>= 64;
        }
        return r;
    }
    static inline bool wide_negative(const Wide &a) { return (int64_t)a.w[Wide::LIMBS - 1] < 0; }
    static inline Wide operator/(const Wide &a, long long k) {  // k > 0; truncates, as C does
        bool negative = wide_negative(a);
        Wide x = negative ? Wide(0) - a : a;
        unsigned __int128 rest = 0;
        for (int i = Wide::LIMBS - 1; i >= 0; --i) {
            unsigned __int128 current = (rest << 64) | x.w[i];
            x.w[i] = (uint64_t)(current / (uint64_t)k);
            rest = current % (uint64_t)k;
        }
        return negative ? Wide(0) - x : x;
    }
    static inline int wide_cmp(const Wide &a, const Wide &b) {
        int top = Wide::LIMBS - 1;
        if (a.w[top] != b.w[top]) return (int64_t)a.w[top] < (int64_t)b.w[top] ? -1 : 1;
        for (int i = top - 1; i >= 0; --i)
            if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
        return 0;
    }
    static inline bool operator<(const Wide &a, const Wide &b) { return wide_cmp(a, b) < 0; }
    static inline bool operator<=(const Wide &a, const Wide &b) { return wide_cmp(a, b) <= 0; }
    static inline bool operator>(const Wide &a, const Wide &b) { return wide_cmp(a, b) > 0; }
    static inline bool operator>=(const Wide &a, const Wide &b) { return wide_cmp(a, b) >= 0; }
    static inline bool operator==(const Wide &a, const Wide &b) { return wide_cmp(a, b) == 0; }
    static inline bool operator!=(const Wide &a, const Wide &b) { return wide_cmp(a, b) != 0; }
    static inline Wide &operator+=(Wide &a, const Wide &b) { a = a + b; return a; }
    static inline Wide &operator-=(Wide &a, const Wide &b) { a = a - b; return a; }
    static inline void wide_set_limb(Wide *a, int i, unsigned long long v) { a->w[i] = v; }
    """
    ctypedef long long Num "Wide"
    void wide_set_limb(Num *a, int i, unsigned long long v)

#: the largest weight (after inversion) handled here, in bits: duals and slacks stay within a
#: few times the largest weight, inside 383 bits
MAX_BITS = 376


cdef inline Num _to_num(object w):
    """A non-negative Python int below 2**383 as a ``Wide``."""
    cdef Num r = 0
    cdef int i
    for i in range(6):
        wide_set_limb(&r, i, <unsigned long long>((w >> (64 * i)) & 0xFFFFFFFFFFFFFFFF))
    return r


include "_blossom_core.pxi"
