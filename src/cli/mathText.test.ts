// Display math in the terminal (issue 40): KaTeX's reading of the TeX, laid out as one line of
// Unicode text; what KaTeX cannot read is left to be shown as typed.
import { describe, expect, it } from 'vitest';
import katex from 'katex';
import { mathWith } from './mathText.ts';

const math = mathWith(katex);

describe('display math as text', () => {
  it('writes scripts, operators, fractions, roots, accents and limits in Unicode', () => {
    expect(math('E = mc^2')).toBe('E = mc²');
    expect(math(String.raw`\sum_{i=1}^{n} x_i^9 \leq \left( \sum_{i=1}^{n} x_i \right)^{9}`)).toBe('∑ᵢ₌₁ⁿ xᵢ⁹ ≤ (∑ᵢ₌₁ⁿ xᵢ)⁹');
    expect(math(String.raw`\frac{a+b}{\sqrt{2\pi}} \neq \alpha\mathbb{R}`)).toBe('(a + b)/√(2π) ≠ αℝ');
    expect(math(String.raw`\int_0^{3} e^{-x^2} \, dx`)).toBe('∫₀³ e^(−x²) dx');
    expect(math(String.raw`\lim_{x \to 0} \frac{\sin x}{x} = 1`)).toBe('lim_(x→0) (sin x)/x = 1');
    expect(math(String.raw`\sqrt[3]{8} = 2, \quad f(x) = -x + \vec{v} \cdot \hat{y}`)).toBe('³√8 = 2, f(x) = −x + v\u20d7 ⋅ y\u0302');
  });

  it('lays out aligned, cases and matrices as lines, columns as wide as their widest cell (wide characters count two)', () => {
    expect(math(String.raw`\begin{aligned} a &= b + c \\ dd &= -e \end{aligned}`)).toBe(' a = b + c\ndd = −e');
    expect(math(String.raw`|x| = \begin{cases} x & x \ge 0 \\ 0 & x = 0 \\ -x & x < 0 \end{cases}`)).toBe(
      '      ⎧ x   x ≥ 0\n∣x∣ = ⎨ 0   x = 0\n      ⎩ −x  x < 0',
    );
    expect(math(String.raw`f = \begin{cases} 1 & \text{if } x \\ 0 & \text{else} \end{cases}`)).toBe('f = ⎰ 1  if x\n    ⎱ 0  else');
    expect(math(String.raw`\begin{pmatrix} 中 & b \\ c & d \end{pmatrix} + \begin{bmatrix} 1 \\ 22 \\ 3 \end{bmatrix}`)).toBe(
      '            ⎡ 1  ⎤\n⎛ 中  b ⎞ + ⎢ 22 ⎥\n⎝ c   d ⎠   ⎣ 3  ⎦',
    );
    expect(math(String.raw`\begin{matrix} 1 & 2 \end{matrix}`)).toBe('1  2');
    expect(math(String.raw`\begin{aligned} f &= 1 \\ g &= \begin{cases} 1 & a \\ 0 & b \\ 2 & c \end{cases} \end{aligned}`)).toBe(
      'f = 1\n    ⎧ 1  a\ng = ⎨ 0  b\n    ⎩ 2  c',
    );
  });

  it('leaves what KaTeX cannot read (and nothing) to be shown as typed', () => {
    expect(math(String.raw`\frac{1}{`)).toBeUndefined();
    expect(math(String.raw`\nosuchcommand{x}`)).toBeUndefined();
    expect(math('  ')).toBeUndefined();
  });
});
