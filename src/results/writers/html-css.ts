/** The inline stylesheet of index.html (screen and print). */
export const CSS = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--card:#fff;
--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--warn:#9a6700;--warn-bg:#fff8c5;
--skip:#59636e;--skip-bg:#eaeef2;--waived:#8250df;--waived-bg:#fbefff;--accent:#0969da}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif}
main{max-width:1120px;margin:0 auto;padding:24px 20px 48px}
h1,h2,h3,h4{line-height:1.25;margin:0}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
a{color:var(--accent)}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;margin:0 0 20px}
.eyebrow{font-size:12px;letter-spacing:.08em;text-transform:uppercase;color:var(--muted);font-weight:600}
/* banner */
.banner{display:grid;grid-template-columns:auto 1fr;gap:20px;padding:24px 28px;border-top:6px solid var(--verdict)}
.banner.v-pass{--verdict:var(--pass);--verdict-bg:var(--pass-bg)}
.banner.v-fail{--verdict:var(--fail);--verdict-bg:var(--fail-bg)}
.banner.v-stop{--verdict:var(--warn);--verdict-bg:var(--warn-bg)}
.seal{width:76px;height:76px;border-radius:50%;background:var(--verdict-bg);display:flex;align-items:center;justify-content:center}
.seal svg{width:44px;height:44px;fill:none;stroke:var(--verdict);stroke-width:2.6;stroke-linecap:round;stroke-linejoin:round}
.verdict{font-size:30px;font-weight:800;letter-spacing:.02em;color:var(--verdict);margin:2px 0 4px}
.verdict-sub{color:var(--muted);margin:0 0 14px}
.failed-list{margin:0 0 14px;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:6px}
.failed-list a{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;color:var(--fail);background:var(--fail-bg);padding:2px 8px;border-radius:4px;text-decoration:none}
.reason{background:var(--verdict-bg);border-left:4px solid var(--verdict);padding:8px 12px;border-radius:4px;margin:0 0 14px}
.flags{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 14px}
.flag{font-size:12px;font-weight:600;padding:2px 10px;border-radius:999px;border:1px solid var(--line);background:var(--bg)}
.flag.alert{border-color:var(--waived);color:var(--waived);background:var(--waived-bg)}
.flag.stop{border-color:var(--warn);color:var(--warn);background:var(--warn-bg)}
.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:10px 24px;margin:0}
.meta div{min-width:0}.meta .span2{grid-column:span 2}
.meta dt{font-size:12px;color:var(--muted)}
.meta dd{margin:0;font-weight:600;overflow-wrap:anywhere}
/* counts */
.counts{display:grid;grid-template-columns:repeat(6,1fr);gap:0;padding:0;overflow:hidden}
.count{padding:14px 18px}
.count+.count{border-left:1px solid var(--line)}
.count b{display:block;font-size:26px;line-height:1.1}
.count span{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.06em}
.count.c-pass b{color:var(--pass)}.count.c-fail b{color:var(--fail)}.count.c-warn b{color:var(--warn)}
.count.c-skip b{color:var(--skip)}.count.c-waived b{color:var(--waived)}
.ratio{grid-column:1/-1;display:block;width:100%;height:6px}
/* filters */
.filters{display:flex;flex-wrap:wrap;align-items:center;gap:10px 18px;padding:12px 16px;position:sticky;top:0;z-index:2;box-shadow:0 4px 12px -8px rgba(31,35,40,.35)}
html:not(.js) .filters{display:none}
.filters fieldset{border:0;margin:0;padding:0;display:flex;gap:6px;align-items:center;flex-wrap:wrap}
.filters legend{float:left;font-size:12px;color:var(--muted);margin-right:4px}
.chip{display:inline-flex;align-items:center;gap:4px;border:1px solid var(--line);border-radius:999px;padding:2px 10px;font-size:12.5px;cursor:pointer;user-select:none;background:var(--card)}
.chip input{margin:0;accent-color:var(--accent)}
.chip:has(input:not(:checked)){opacity:.5;text-decoration:line-through}
.filters input[type=search]{flex:1;min-width:200px;padding:6px 10px;border:1px solid var(--line);border-radius:6px;font:inherit}
.filters button{font:inherit;font-size:12.5px;padding:4px 10px;border:1px solid var(--line);border-radius:6px;background:var(--bg);cursor:pointer}
.shown{font-size:12px;color:var(--muted);margin-left:auto}
.empty{padding:16px;color:var(--muted);text-align:center}
/* areas and requirements */
.area{padding:0;overflow:hidden}
.area>header{display:flex;align-items:baseline;gap:12px;padding:12px 16px;background:var(--bg);border-bottom:1px solid var(--line)}
.area h2{font-size:16px}
.area-tally{font-size:12px;color:var(--muted)}
.req{border-bottom:1px solid var(--line);padding:10px 16px;scroll-margin-top:130px}
.req:last-child{border-bottom:0}
.req.s-fail{box-shadow:inset 4px 0 0 var(--fail)}
.req.s-warn{box-shadow:inset 4px 0 0 #d4a72c}.req.s-waived{box-shadow:inset 4px 0 0 var(--waived)}
.req-head{display:grid;grid-template-columns:72px 72px minmax(0,auto) 1fr;gap:10px;align-items:baseline}
.req-id{font-weight:600;white-space:nowrap}
.req-title{min-width:0}
.req-head .pill{display:block}
.pill{display:inline-block;text-align:center;font-size:11px;font-weight:700;letter-spacing:.04em;padding:1px 8px;border-radius:4px;text-transform:uppercase}
.st-pass{color:var(--pass);background:var(--pass-bg)}.st-fail{color:#fff;background:var(--fail)}
.st-warn{color:var(--warn);background:var(--warn-bg)}.st-skip{color:var(--skip);background:var(--skip-bg)}
.st-waived{color:var(--waived);background:var(--waived-bg)}
.lv{border:1px solid var(--line);color:var(--muted);background:transparent}
.lv-MUST{border-color:var(--fg);color:var(--fg)}
.req-body{margin:4px 0 0 164px;color:var(--muted);font-size:13px}
.req-body p{margin:2px 0}
.spec q{font-style:italic}.checks{white-space:nowrap}
.why{color:var(--fg)}
.waiver{border-left:3px solid var(--waived);padding:4px 10px;margin:6px 0;background:var(--waived-bg);color:var(--fg);border-radius:3px}
.obs{margin:4px 0;padding-left:18px;color:var(--fg)}
details.evidence{margin:8px 0 4px;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg)}
details.evidence>summary{cursor:pointer;padding:8px 12px;font-weight:600}
details.evidence[open]>summary{border-bottom:1px solid var(--line)}
.ev{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px;padding:12px}
.ev h4{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 4px}
.ev .wide{grid-column:1/-1}
.exp{display:grid;grid-template-columns:80px 1fr;gap:4px 10px;margin:0}
.exp dt{font-weight:600;color:var(--muted)}.exp dd{margin:0;overflow-wrap:anywhere}
pre.http{margin:0;padding:10px;background:#0d1117;color:#e6edf3;border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:340px;overflow:auto}
pre.http .sl{color:#7ee787;font-weight:700}pre.http .sl.bad{color:#ff7b72}
pre.http .hn{color:#79c0ff}pre.http .trunc{color:#d29922}
.src{font-size:12px;color:var(--muted);padding:0 12px 10px}
/* load */
.load{padding:16px 20px}
.load h3{font-size:15px;margin:0 0 4px;display:flex;gap:10px;align-items:center}
.load .sub{color:var(--muted);font-size:12.5px;margin:0 0 10px}
figure.chart{margin:8px 0 12px}
figure.chart svg{width:100%;height:auto;display:block;font-family:inherit}
figure.chart figcaption{display:flex;flex-wrap:wrap;gap:14px;font-size:12px;color:var(--muted);margin-top:4px}
.sw{display:inline-block;width:12px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.sw-ok{background:#2da44e}.sw-429{background:#cf222e}.sw-other{background:#8c959f}
.sw-line{height:3px;background:#0969da;vertical-align:2px}.sw-ra{background:#fb8f44;opacity:.35}
.lv-table{width:100%;border-collapse:collapse;font-size:13px}
.lv-table td,.lv-table th{text-align:left;padding:4px 8px;border-top:1px solid var(--line);vertical-align:top}
.lv-table th{font-size:11px;color:var(--muted);text-transform:uppercase;letter-spacing:.06em}
.notes{padding:16px 20px}.notes ul{margin:8px 0 0;padding-left:20px}
section>h2.section{font-size:18px;margin:28px 0 10px}
footer{color:var(--muted);font-size:12px;text-align:center;margin-top:24px;overflow-wrap:anywhere}
@media (max-width:760px){.counts{grid-template-columns:repeat(3,1fr)}.req-head{grid-template-columns:auto auto 1fr}.req-title{grid-column:1/-1}.req-body{margin-left:0}.ev{grid-template-columns:1fr}}
@media print{
body{background:#fff;font-size:11px}main{max-width:none;padding:0}
.filters,.no-print{display:none!important}
.card{break-inside:avoid-page;border-color:#999}.banner{border-top-color:var(--verdict)}.area{break-inside:auto}
.req{break-inside:avoid}
pre.http{background:#f6f8fa;color:#000;border:1px solid #ccc;max-height:none}
pre.http .sl,pre.http .hn,pre.http .trunc{color:#000}

*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`;
