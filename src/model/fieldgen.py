#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
fieldgen: a .fields file (the field tables of one C file, as data) or a
.opts file (a command's options bound to its struct) to the C that file
includes. Run by meson at build time:
fieldgen.py FIELD_H IN NAME_IN_ERRORS OUT [DEPFILE] (NAME_IN_ERRORS: what #line and the
messages call IN; DEPFILE: make rules naming field.h and this script).

The format, a line each (blank lines and '#' comments skipped):
  table NAME STRUCT        starts 'static const struct field NAME[]' of STRUCT
  MEMBER KEY HEADER UNIT TYPE DECIMALS FLAGS
                           a field: MEMBER of STRUCT ('usb.speed' reaches in);
                           KEY its JSON key, CSV and SQL column ('new<old':
                           stored under old, the key it had); HEADER its text
                           label; UNIT '-' for none, UNIT_* for model/field.h's
                           units, else the text; TYPE a field_type without FT_,
                           lower case; FLAGS '-' or field flags without FF_,
                           lower case, comma-separated
  +pass_sys MEMBER         the pass's CPU and system figures (PASS_SYS_FIELDS)
  [static] desc VAR NAME   after the table: 'const struct record_desc VAR', the
                           record NAME (a schema's section) of these fields
Option values (cmd/CMD.opts; cmd/bind.h):
  options NAME STRUCT      starts 'static const struct opt_bind NAME[]': the
                           options set in STRUCT as they are parsed
  KEY MEMBER flag|text     --X sets MEMBER (a bool) or points it at the value
  KEY MEMBER KIND MIN MAX EXPECTED
                           KIND number or size (MEMBER a uint64_t, or an
                           unsigned or int MAX fits in; MIN and MAX whole, K, M, G, T: 2^10..2^40,
                           or a macro), duration (seconds) or real (MEMBER a
                           double); a value out of range is told "invalid
                           --NAME 'VALUE': EXPECTED". The compiler checks
                           MEMBER's type against KIND (a _Static_assert).
Words with spaces are quoted ("max speed"). What model/field.h does not name
(a type, a flag, a unit macro) and a key twice in one table stop the build
with the file and line.
"""
import os
import re
import shlex
import sys


def vocabulary(field_h):
    text = open(field_h, encoding='utf-8').read()
    types = set(t.lower() for t in re.findall(r'\bFT_([A-Z0-9_]+)\b', text))
    flags = set(f.lower() for f in re.findall(r'^\s*FF_([A-Z0-9_]+)\s*=', text, re.M))
    units = set(re.findall(r'^#define\s+(UNIT_\w+)\s', text, re.M))
    return types, flags, units


def cstring(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


class Bad(Exception):
    pass


def field_row(words, vocab, keys):
    types, flags, units = vocab
    if len(words) != 7:
        raise Bad('a field has 7 words (member key header unit type decimals flags), not %d'
                  % len(words))
    member, key, header, unit, typ, prec, fl = words
    if not re.fullmatch(r'[A-Za-z_][\w.\[\]]*', member):
        raise Bad('member %r is not a C member' % member)
    key, _, stored = key.partition('<')
    if not re.fullmatch(r'[a-z][a-z0-9_]*', key) or (stored and not re.fullmatch(r'[a-z][a-z0-9_]*', stored)):
        raise Bad('key %r: snake_case' % key)
    if key in keys:
        raise Bad('key %r twice in this table' % key)
    keys.add(key)
    if unit == '-':
        unit_c = 'NULL'
    elif unit.startswith('UNIT_'):
        if unit not in units:
            raise Bad('unit %s is not in model/field.h' % unit)
        unit_c = unit
    else:
        unit_c = cstring(unit)
    if typ not in types:
        raise Bad('type %r: one of %s' % (typ, ', '.join(sorted(types))))
    if not re.fullmatch(r'\d{1,2}', prec):
        raise Bad('decimals %r: a number' % prec)
    if fl == '-':
        flags_c = '0'
    else:
        names = fl.split(',')
        for f in names:
            if f not in flags:
                raise Bad('flag %r: one of %s' % (f, ', '.join(sorted(flags))))
        flags_c = ' | '.join('FF_' + f.upper() for f in names)
    args = [member, cstring(key)] + ([cstring(stored)] if stored else []) + [
        cstring(header), unit_c, 'FT_' + typ.upper(), prec, flags_c]
    return ('FIELD_RENAMED' if stored else 'FIELD'), args


SUFFIX = {'K': 10, 'M': 20, 'G': 30, 'T': 40}


def whole(w):
    m = re.fullmatch(r'(\d+)([KMGT]?)', w)
    if m:
        n = int(m.group(1)) << SUFFIX.get(m.group(2), 0)
        return '%dull' % n
    if re.fullmatch(r'[A-Z_][A-Z0-9_]*', w):
        return w
    raise Bad('%r: a whole number (K, M, G, T) or a macro' % w)


def real(w):
    if re.fullmatch(r'\d+(\.\d+)?([eE][-+]?\d+)?', w) or re.fullmatch(r'[A-Z_][A-Z0-9_]*', w):
        return w
    raise Bad('%r: a number or a macro' % w)


KINDS = {'flag': 'OV_FLAG', 'text': 'OV_TEXT', 'number': 'OV_NUMBER', 'size': 'OV_SIZE',
         'duration': 'OV_DURATION', 'real': 'OV_REAL'}


def option_row(words, struct, keys, where):
    """the initializer and the static assertion of one bound option"""
    if len(words) not in (3, 6):
        raise Bad('an option has 3 words (key member flag|text) or 6 (key member kind min max '
                  'expected), not %d' % len(words))
    key, member, kind = words[:3]
    if not re.fullmatch(r'[A-Z][A-Z0-9_]*', key):
        raise Bad('key %r: an option key (RUN_O_TIME)' % key)
    if key in keys:
        raise Bad('key %s twice in this table' % key)
    keys.add(key)
    if not re.fullmatch(r'[A-Za-z_][\w.]*', member):
        raise Bad('member %r is not a C member' % member)
    if kind not in KINDS:
        raise Bad('kind %r: one of %s' % (kind, ', '.join(KINDS)))
    if (len(words) == 3) != (kind in ('flag', 'text')):
        raise Bad('%s takes %s' % (kind, 'no range' if kind in ('flag', 'text')
                                    else 'MIN MAX EXPECTED'))
    store = 'OPT_STORE(%s, %s)' % (struct, member)
    dmin = dmax = umin = umax = '0'
    expected = 'NULL'
    if kind == 'flag':
        need, what = '%s == OS_BOOL' % store, 'a bool'
    elif kind == 'text':
        need, what = '%s == OS_STR' % store, 'a const char *'
    elif kind in ('number', 'size'):
        umin, umax = whole(words[3]), whole(words[4])
        need = ('%s == OS_U64 || (%s == OS_UINT && %s <= UINT_MAX) || (%s == OS_INT && %s <= INT_MAX)'
                % (store, store, umax, store, umax))
        what = 'a uint64_t, or an unsigned or int its maximum fits'
    else:
        dmin, dmax = real(words[3]), real(words[4])
        need, what = '%s == OS_DOUBLE' % store, 'a double'
    if len(words) == 6:
        expected = cstring(words[5])
    init = '\t{%s, %s, %s, offsetof(%s, %s), %s, %s, %s, %s, %s},' % (
        key, KINDS[kind], store, struct, member, dmin, dmax, umin, umax, expected)
    check = '_Static_assert(%s, "%s: %s is read as %s: %s");' % (need, where, member, kind, what)
    return init, check


def generate(field_h, src, name_in_errors):
    vocab = vocabulary(field_h)
    out = ['/* made by src/model/fieldgen.py from %s: edit that file */' % name_in_errors]
    table, struct, keys, descs = None, None, set(), []
    kind, checks = None, []

    def close():
        if table and kind == 'options':
            out.append('\t{0},')
            out.append('};')
            out.extend(checks)
            del checks[:]
        elif table:
            out.append('};')
            for static, var, name in descs:
                out.append('%sconst struct record_desc %s = RECORD_DESC(%s, %s);'
                           % ('static ' if static else '', var, cstring(name), table))

    for n, line in enumerate(open(src, encoding='utf-8'), 1):
        s = line.strip()
        if not s or s.startswith('#'):
            continue
        try:
            words = shlex.split(s, comments=False, posix=True)
            if words[0] in ('table', 'options'):
                if len(words) < 3 or not re.fullmatch(r'[A-Za-z_]\w*', words[1]):
                    raise Bad('"%s NAME STRUCT"' % words[0])
                close()
                table, struct, keys, descs = words[1], ' '.join(words[2:]), set(), []
                kind = words[0]
                if kind == 'options' and '#include "cmd/bind.h"' not in out:
                    out.insert(1, '#include "cmd/bind.h"')
                out.append('static const struct %s %s[] = {'
                           % ('field' if kind == 'table' else 'opt_bind', table))
                continue
            if table is None:
                raise Bad('a row before the first "table" or "options" line')
            if kind == 'options':
                init, check = option_row(words, struct, keys, '%s:%d' % (name_in_errors, n))
                out.append('#line %d "%s"' % (n, name_in_errors))
                out.append(init)
                checks.append('#line %d "%s"' % (n, name_in_errors))
                checks.append(check)
                continue
            if words[0] in ('desc', 'static'):
                static = words[0] == 'static'
                if static:
                    words = words[1:]
                if len(words) != 3 or words[0] != 'desc' or not re.fullmatch(r'[A-Za-z_]\w*', words[1]):
                    raise Bad('"[static] desc VAR NAME"')
                descs.append((static, words[1], words[2]))
                continue
            out.append('#line %d "%s"' % (n, name_in_errors))
            if words[0] == '+pass_sys':
                if len(words) != 2:
                    raise Bad('"+pass_sys MEMBER"')
                out.append('\tPASS_SYS_FIELDS(%s, %s),' % (struct, words[1]))
                continue
            macro, args = field_row(words, vocab, keys)
            out.append('\t%s(%s, %s),' % (macro, struct, ', '.join(args)))
        except (Bad, ValueError) as e:
            sys.stderr.write('%s:%d: %s\n' % (name_in_errors, n, e))
            sys.exit(1)
    close()
    if table is None:
        sys.stderr.write('%s: no table\n' % name_in_errors)
        sys.exit(1)
    return '\n'.join(out) + '\n'


def main():
    if len(sys.argv) not in (5, 6):
        sys.stderr.write('usage: fieldgen.py FIELD_H IN.fields NAME_IN_ERRORS OUT.h [OUT.d]\n')
        sys.exit(2)
    field_h, src, name, dst = sys.argv[1:5]
    text = generate(field_h, src, name)
    with open(dst, 'w', encoding='utf-8') as f:
        f.write(text)
    if len(sys.argv) == 6:
        # what else the output is made from: the vocabulary and this script (a make depfile)
        esc = [p.replace(' ', '\\ ') for p in (dst, os.path.abspath(field_h),
                                                 os.path.abspath(__file__))]
        with open(sys.argv[5], 'w', encoding='utf-8') as f:
            f.write('%s: %s\n' % (esc[0], ' '.join(esc[1:])))


if __name__ == '__main__':
    main()
