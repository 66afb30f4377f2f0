/**
 * Why a JSON text cannot be rewritten without loss after JSON.parse, or
 * undefined when it can: a duplicate key (JSON.parse keeps the last one
 * silently), a `__proto__` key (object tools treat it as the prototype), or a
 * number JavaScript cannot hold exactly. Expects text JSON.parse accepted.
 */
export function findJsonLoss(text: string): string | undefined {
  const objects: Array<{ keys: Set<string>; expectKey: boolean } | undefined> = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const top = objects[objects.length - 1];
    if (ch === '{') objects.push({ keys: new Set(), expectKey: true });
    else if (ch === '[') objects.push(undefined);
    else if (ch === '}' || ch === ']') objects.pop();
    else if (ch === ',' && top) top.expectKey = true;
    else if (ch === '"') {
      const end = stringEnd(text, i);
      if (top?.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (key === '__proto__') return 'a "__proto__" key';
        if (top.keys.has(key)) return `the key ${JSON.stringify(key)} appears twice in one object`;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const token = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))![0];
      if (!sameNumber(token, String(Number(token)))) return `the number ${token.slice(0, 40)} cannot be kept exactly`;
      i += token.length - 1;
    }
  }
  return undefined;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

/** Same decimal value: significant digits and exponent compared, so 1.0 = 1 and 1e2 = 100, but 2^53+1 ≠ 2^53. */
function sameNumber(a: string, b: string): boolean {
  const x = decimal(a);
  const y = decimal(b);
  return x.digits === y.digits && (x.digits === '0' || (x.sign === y.sign && x.exponent === y.exponent));
}

function decimal(token: string): { sign: string; digits: string; exponent: number } {
  const [, sign = '', whole = '', fraction = '', exp = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token) ?? [];
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let exponent = Number(exp) - fraction.length;
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exponent++;
  }
  return digits === '' ? { sign: '', digits: '0', exponent: 0 } : { sign, digits, exponent };
}
