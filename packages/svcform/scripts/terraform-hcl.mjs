// The subset of HCL (Terraform 1.x) the Terraform provider's acceptance configurations are written
// in, read into plain values for terraform-configs.mjs: blocks, attributes, strings (escapes,
// `${...}` interpolation), heredocs, numbers, booleans, null, lists, objects, references and
// function calls. What a configuration computes (a reference, a variable, a call other than
// jsonencode/tolist/toset) becomes a placeholder string `tf-<expression>`; a conditional keeps its
// first branch. Not a general HCL reader: a file it cannot read is reported and skipped.

export function parseHcl(src) {
  let i = 0;
  const fail = (what) => {
    throw new Error(`${what} at line ${src.slice(0, i).split('\n').length}`);
  };
  const blank = (newlines = true) => {
    for (;;) {
      const c = src[i];
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) i++;
      else if (c === '#' || (c === '/' && src[i + 1] === '/')) while (i < src.length && src[i] !== '\n') i++;
      else if (c === '/' && src[i + 1] === '*') i = src.indexOf('*/', i) + 2;
      else return;
    }
  };
  const identifier = () => {
    const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i, i + 200));
    if (!m) fail('a name expected');
    i += m[0].length;
    return m[0];
  };
  const placeholder = (expression) => `tf-${expression.trim().replace(/[^A-Za-z0-9]+/g, '-').replace(/^var-/, '')}`;
  const interpolationEnd = (from) => {
    let depth = 0;
    for (let j = from; j < src.length; j++) {
      if (src[j] === '{') depth++;
      else if (src[j] === '}') {
        if (depth === 0) return j;
        depth--;
      }
    }
    return fail('an unclosed ${');
  };
  const string = () => {
    i++;
    let out = '';
    for (;;) {
      const c = src[i];
      if (c === undefined) fail('an unclosed string');
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = src[i + 1];
        out += { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' }[e] ?? `\\${e}`;
        i += 2;
      } else if (c === '$' && src[i + 1] === '{') {
        const end = interpolationEnd(i + 2);
        out += placeholder(src.slice(i + 2, end));
        i = end + 1;
      } else {
        out += c;
        i++;
      }
    }
  };
  const heredoc = () => {
    const m = /^<<(-?)([A-Za-z_]+)\n/.exec(src.slice(i));
    i += m[0].length;
    const end = new RegExp(`^\\s*${m[2]}\\s*$`, 'm').exec(src.slice(i));
    let body = src.slice(i, i + end.index);
    i += end.index + end[0].length;
    if (m[1]) {
      const lines = body.split('\n');
      const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)[0].length));
      body = lines.map((l) => l.slice(indent)).join('\n');
    }
    return body.replace(/\$\{([^}]*)\}/g, (_, e) => placeholder(e));
  };
  /** The members up to `close`, separated by commas or new lines, each read by `member`. */
  const members = (close, member) => {
    i++;
    for (;;) {
      blank();
      if (src[i] === close) {
        i++;
        return;
      }
      member();
      blank();
      if (src[i] === ',') i++;
    }
  };
  const list = () => {
    const out = [];
    members(']', () => out.push(value()));
    return out;
  };
  const object = () => {
    const out = {};
    members('}', () => {
      const key = src[i] === '"' ? string() : identifier();
      blank();
      if (src[i] !== '=' && src[i] !== ':') fail('= expected in an object');
      i++;
      out[key] = value();
    });
    return out;
  };
  const call = (name, start) => {
    const args = [];
    members(')', () => args.push(value()));
    if (name === 'jsonencode') return JSON.stringify(args[0]);
    if (name === 'tolist' || name === 'toset') return args[0];
    return placeholder(src.slice(start, i));
  };
  const value = () => {
    blank();
    const c = src[i];
    let v;
    if (c === '"') v = string();
    else if (c === '<' && src[i + 1] === '<') v = heredoc();
    else if (c === '[') v = list();
    else if (c === '{') v = object();
    else if (c === '(') {
      i++;
      v = value();
      blank();
      i++;
    } else if (/[-0-9]/.test(c)) {
      const m = /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(src.slice(i));
      i += m[0].length;
      v = Number(m[0]);
    } else {
      const start = i;
      const name = identifier();
      if (name === 'true' || name === 'false') v = name === 'true';
      else if (name === 'null') v = null;
      else if (src[i] === '(') v = call(name, start);
      else {
        while (/[.A-Za-z0-9_[\]"*-]/.test(src[i])) i++;
        v = placeholder(src.slice(start, i));
      }
    }
    blank(false);
    if (src[i] === '?') {
      i++;
      const first = value();
      blank();
      i++; // ':'
      value();
      return first;
    }
    return v;
  };
  const body = (closing) => {
    const out = { attrs: {}, blocks: [] };
    for (;;) {
      blank();
      if (i >= src.length || src[i] === closing) {
        i++;
        return out;
      }
      const name = identifier();
      blank(false);
      if (src[i] === '=') {
        i++;
        out.attrs[name] = value();
        continue;
      }
      const labels = [];
      while (src[i] === '"') {
        labels.push(string());
        blank(false);
      }
      if (src[i] !== '{') fail('a block expected');
      i++;
      out.blocks.push({ type: name, labels, ...body('}') });
    }
  };
  return body(undefined);
}
