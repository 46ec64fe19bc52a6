/** A ratio with three significant digits and a `×`, e.g. `48.2×`, `0.731×`, `1 230×`. */
export function formatRatio(value: number): string {
  return `${significant(value, 3)}×`;
}

/** A value in `unit`, scaled for reading: durations in µs/ms/s, sizes in B/KiB/MiB/GiB, rates with k/M. */
export function formatValue(value: number, unit: string): string {
  switch (unit) {
    case 'ms':
      return formatMilliseconds(value);
    case 'bytes':
      return formatBytes(value);
    default:
      return `${scaled(value)} ${unit}`;
  }
}

/** `0.41 ms`, `12.3 ms`, `1.20 s`, `87 µs`. */
export function formatMilliseconds(ms: number): string {
  if (Math.abs(ms) >= 1000) return `${significant(ms / 1000, 3)} s`;
  if (Math.abs(ms) >= 0.1 || ms === 0) return `${significant(ms, 3)} ms`;
  return `${significant(ms * 1000, 3)} µs`;
}

/** `512 B`, `1.50 KiB`, `12.0 MiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'] as const;
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${significant(value, 3)} ${units[unit] ?? ''}`;
}

/** `950`, `12.3k`, `1.20M`. */
function scaled(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude >= 1e6) return `${significant(value / 1e6, 3)}M`;
  if (magnitude >= 1e4) return `${significant(value / 1e3, 3)}k`;
  return significant(value, 3);
}

/** `value` to `digits` significant digits, without exponent notation, integers grouped by thousands. */
export function significant(value: number, digits: number): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  const rounded = value.toFixed(decimals);
  if (decimals > 0) return rounded;
  return Number(rounded).toLocaleString('en-US').replaceAll(',', ' ');
}
