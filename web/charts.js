// Small line charts as inline SVG, drawn from points the kvcalc core computed. This module only
// maps values to pixels and picks round tick values for the axes; it computes no result. Styling
// lives in style.css (classes only: the CSP forbids inline style attributes in markup).

const NS = "http://www.w3.org/2000/svg";
const W = 480;
const H = 280;
const M = { left: 62, right: 18, top: 18, bottom: 48 };

function el(tag, attrs = {}, text = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

// --- tick values (round numbers inside a range) ---------------------------------------------
export function powerTicks(lo, hi, base) {
  // base^k (and for base 10 also 2·10^k and 5·10^k) within [lo, hi]
  const out = [];
  const mult = base === 10 ? [1, 2, 5] : [1];
  for (let k = Math.floor(Math.log(lo) / Math.log(base)) - 1; Math.pow(base, k) <= hi * base; k++) {
    for (const m of mult) {
      const v = m * Math.pow(base, k);
      if (v >= lo * 0.9999 && v <= hi * 1.0001) out.push(v);
    }
  }
  // keep at most ~7 labels: every second / third value
  const step = Math.ceil(out.length / 7);
  return out.filter((_, i) => i % step === 0);
}

export function linearTicks(lo, hi, n = 5) {
  const span = hi - lo || Math.abs(hi) || 1;
  const raw = span / n;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) || 10 * mag;
  // from the last round value at or below lo to the first at or above hi
  const out = [];
  const top = Math.ceil(hi / step - 1e-9) * step;
  for (let v = Math.floor(lo / step + 1e-9) * step; v <= top + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

// --- the chart ------------------------------------------------------------------------------
/**
 * spec: {points: [[x, y]], xLog, yLog, xDomain: [lo, hi], yDomain: [lo, hi], xTicks, yTicks,
 *        xFmt, yFmt, xLabel, yLabel, current: {x, y, label} | null, vline: {x, label} | null,
 *        hline: {y, label} | null, title, desc, empty: text shown instead of a line}
 */
export function drawChart(svg, spec) {
  const title = svg.querySelector("title");
  const desc = svg.querySelector("desc");
  title.textContent = spec.title;
  desc.textContent = spec.desc;
  const parts = [];
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const [x0, x1] = spec.xDomain;
  const [y0, y1] = spec.yDomain;
  const fx = spec.xLog ? Math.log : (v) => v;
  const fy = spec.yLog ? Math.log : (v) => v;
  const clampY = (v) => (spec.yLog ? Math.max(v, y0) : v);
  const px = (x) => M.left + ((fx(x) - fx(x0)) / ((fx(x1) - fx(x0)) || 1)) * pw;
  const py = (y) => M.top + ph - ((fy(clampY(y)) - fy(y0)) / ((fy(y1) - fy(y0)) || 1)) * ph;
  const r = (v) => Math.round(v * 10) / 10;

  // grid and axes
  const axes = el("g", { class: "axes", "aria-hidden": "true" });
  for (const t of spec.yTicks) {
    const y = r(py(t));
    axes.append(el("line", { class: "grid", x1: M.left, x2: M.left + pw, y1: y, y2: y }));
    axes.append(el("text", { class: "tick", x: M.left - 6, y: y + 4, "text-anchor": "end" }, spec.yFmt(t)));
  }
  for (const t of spec.xTicks) {
    const x = r(px(t));
    axes.append(el("line", { class: "grid", x1: x, x2: x, y1: M.top, y2: M.top + ph }));
    axes.append(el("text", { class: "tick", x, y: M.top + ph + 16, "text-anchor": "middle" }, spec.xFmt(t)));
  }
  axes.append(el("line", { class: "axis", x1: M.left, x2: M.left + pw, y1: M.top + ph, y2: M.top + ph }));
  axes.append(el("line", { class: "axis", x1: M.left, x2: M.left, y1: M.top, y2: M.top + ph }));
  axes.append(el("text", { class: "label", x: M.left + pw / 2, y: H - 8, "text-anchor": "middle" }, spec.xLabel));
  axes.append(el("text", { class: "label", x: 14, y: M.top + ph / 2, "text-anchor": "middle",
    transform: `rotate(-90 14 ${M.top + ph / 2})` }, spec.yLabel));
  parts.push(axes);

  if (spec.empty) {
    parts.push(el("text", { class: "empty", x: M.left + pw / 2, y: M.top + ph / 2, "text-anchor": "middle" }, spec.empty));
    svg.replaceChildren(title, desc, ...parts);
    svg.dataset.points = "0";
    return;
  }

  // reference lines
  if (spec.hline) {
    const y = r(py(spec.hline.y));
    parts.push(el("line", { class: "ref", x1: M.left, x2: M.left + pw, y1: y, y2: y }));
    parts.push(el("text", { class: "ref-label", x: M.left + pw - 4, y: y - 5, "text-anchor": "end" }, spec.hline.label));
  }
  if (spec.vline) {
    const x = r(px(spec.vline.x));
    parts.push(el("line", { class: "ref limit", x1: x, x2: x, y1: M.top, y2: M.top + ph }));
    const left = x > M.left + pw * 0.6;
    parts.push(el("text", { class: "ref-label", x: left ? x - 5 : x + 5, y: M.top + 12,
      "text-anchor": left ? "end" : "start" }, spec.vline.label));
  }

  // the line and its points
  const d = spec.points.map(([x, y], i) => `${i ? "L" : "M"}${r(px(x))} ${r(py(y))}`).join(" ");
  parts.push(el("path", { class: "line", d }));
  const dots = el("g", { class: "pts" });
  for (const [x, y] of spec.points) {
    const c = el("circle", { class: "pt", cx: r(px(x)), cy: r(py(y)), r: 2.6 });
    c.append(el("title", {}, `${spec.xFmt(x, true)}: ${spec.yFmt(y, true)}`));
    dots.append(c);
  }
  parts.push(dots);

  if (spec.current) {
    const cx = r(px(spec.current.x));
    const cy = r(py(spec.current.y));
    const g = el("g", { class: "current" });
    g.append(el("circle", { class: "cur", cx, cy, r: 5.5 }));
    const right = cx < M.left + pw * 0.55;
    // the label goes on the side of the line it does not cross: under a line that rises on the label's
    // side (a falling curve labelled to its left), above one that sinks; never outside the plot
    const span = spec.points.map(([x, y]) => [px(x) - cx, py(y)])
      .filter(([dx]) => (right ? dx > 8 && dx < 160 : dx < -8 && dx > -160));
    const lineAbove = span.length > 0 && span.reduce((sum, [, y]) => sum + y, 0) / span.length < cy;
    const below = cy < M.top + 24 || (lineAbove && cy + 20 < M.top + ph - 4);
    // paint-order: the white stroke (style.css) is a halo that keeps the label readable over the line
    g.append(el("text", { class: "cur-label", x: right ? cx + 10 : cx - 10, y: below ? cy + 20 : cy - 12,
      "text-anchor": right ? "start" : "end", "paint-order": "stroke" }, spec.current.label));
    parts.push(g);
  }
  svg.replaceChildren(title, desc, ...parts);
  svg.dataset.points = String(spec.points.length);
}
