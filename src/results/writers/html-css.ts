/**
 * The inline stylesheet of index.html (screen and print). Readable from a
 * 420 px phone to a wide screen: the banner and its facts reflow, long ids
 * wrap, the filter bar is sticky only where there is room, and the load chart
 * swaps to its narrow drawing (same data, larger relative text). The plan
 * matrix scrolls sideways inside its own box, its requirement column pinned.
 */
export const CSS = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--card:#fff;
--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--warn:#9a6700;--warn-bg:#fff8c5;
--skip:#59636e;--skip-bg:#eaeef2;--waived:#8250df;--waived-bg:#fbefff;--obs:#0550ae;--obs-bg:#ddf4ff;--accent:#0969da}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif}
main{max-width:1120px;margin:0 auto;padding:24px 20px 48px}
h1,h2,h3,h4,h5{line-height:1.25;margin:0}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
code{overflow-wrap:anywhere}
a{color:var(--accent)}
.muted{color:var(--muted)}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;margin:0 0 20px;min-width:0}
.eyebrow{font-size:12px;letter-spacing:.08em;text-transform:uppercase;color:var(--muted);font-weight:600}
/* banner */
.banner{display:grid;grid-template-columns:auto minmax(0,1fr);gap:8px 20px;padding:24px 28px;border-top:6px solid var(--verdict)}
.banner.v-certified{--verdict:var(--pass);--verdict-bg:var(--pass-bg)}
.banner.v-not-conformant{--verdict:var(--fail);--verdict-bg:var(--fail-bg)}
.banner.v-incomplete{--verdict:var(--warn);--verdict-bg:var(--warn-bg)}
.banner-main{min-width:0}
.seal{width:76px;height:76px;border-radius:50%;background:var(--verdict-bg);display:flex;align-items:center;justify-content:center}
.seal svg{width:44px;height:44px;fill:none;stroke:var(--verdict);stroke-width:2.6;stroke-linecap:round;stroke-linejoin:round}
.verdict{font-size:30px;font-weight:800;letter-spacing:.02em;color:var(--verdict);margin:2px 0 4px;overflow-wrap:anywhere}
.verdict-sub{margin:0 0 12px;font-size:15px}
.failed-list{margin:0 0 6px;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:6px}
.failed-list a{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;color:var(--fail);background:var(--fail-bg);padding:2px 8px;border-radius:4px;text-decoration:none;overflow-wrap:anywhere}
.reason{background:var(--verdict-bg);border-left:4px solid var(--verdict);padding:8px 12px;border-radius:4px;margin:0 0 12px;overflow-wrap:anywhere}
.flags{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 12px}
.flag{font-size:12px;font-weight:600;padding:2px 10px;border-radius:999px;border:1px solid var(--line);background:var(--bg)}
.flag.alert{border-color:var(--waived);color:var(--waived);background:var(--waived-bg)}
.flag.stop{border-color:var(--warn);color:var(--warn);background:var(--warn-bg)}
.meta{grid-column:1/-1;display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:8px 24px;margin:8px 0 0;padding-top:12px;border-top:1px solid var(--line)}
.meta div{min-width:0}.meta .m-meta-spec,.meta .m-meta-target,.meta .m-meta-conformance-key{grid-column:span 2}
.meta dt{font-size:12px;color:var(--muted)}
.meta dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.meta .m-meta-spec dd{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;font-weight:400}
/* comparison, notices */
.comparison,.notice{padding:14px 20px}
.comparison h2,.notice h2{font-size:16px;margin:0 0 8px}
.comparison dl{margin:0;display:grid;gap:6px}
.cmp{display:grid;grid-template-columns:240px minmax(0,1fr);gap:12px}
.cmp dt{font-weight:600}.cmp dd{margin:0;display:flex;flex-wrap:wrap;gap:4px 10px}
.cmp-newProblems dt{color:var(--fail)}.cmp-fixed dt{color:var(--pass)}.cmp-flapping dt{color:var(--warn)}
.notice ul{margin:6px 0 0;padding-left:20px}.notice li{margin:0 0 6px;overflow-wrap:anywhere}
.remedy{color:var(--accent)}
/* plans */
.plans{padding:14px 20px}
.plans h2{font-size:16px;margin:0 0 6px}
.plans .intro{margin:0 0 10px;overflow-wrap:anywhere}
.matrix-scroll{overflow-x:auto;border:1px solid var(--line);border-radius:8px}
.matrix{border-collapse:separate;border-spacing:0;width:100%;font-size:13px}
.matrix th,.matrix td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
.matrix tbody tr:last-child>*{border-bottom:0}
.matrix thead th{background:var(--bg);min-width:150px}.matrix thead th:first-child{vertical-align:bottom}
.matrix th:first-child{position:sticky;left:0;z-index:1;background:var(--card);min-width:170px;max-width:230px;overflow-wrap:anywhere;box-shadow:inset -1px 0 0 var(--line)}
.matrix thead th:first-child{background:var(--bg)}
.matrix .area-row th{position:static;background:var(--bg);font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);box-shadow:none}
.matrix .shared td{overflow-wrap:anywhere}.matrix .failed a{margin-left:4px}
.plan-col{border-top:4px solid var(--tone)}
.plan-col>a,.plan-col>span{display:block;margin:2px 0}.plan-col>span.pill{display:inline-block}
.plan-name{font-size:15px;font-weight:700}
.plan-col .limits,.plan-col .key{font-weight:400;font-size:12px;color:var(--muted);overflow-wrap:anywhere}
.p-certified{--tone:var(--pass)}.p-incomplete{--tone:#d4a72c}.p-not-conformant{--tone:var(--fail)}
.o-certified{color:#fff;background:var(--pass)}.o-incomplete{color:var(--warn);background:var(--warn-bg)}.o-not-conformant{color:#fff;background:var(--fail)}
details.cell>summary{cursor:pointer}
details.cell p{margin:4px 0 0;font-size:12px;min-width:160px;overflow-wrap:anywhere}
.by-plan .pill{margin:0 4px 2px 0;text-transform:none}
.on-plans{color:var(--muted);font-size:12.5px}
.same-list{line-height:2}.plan-chips{display:none;flex-wrap:wrap;gap:6px 14px;margin:0 0 10px}.plan-chips a{font-weight:700}
/* counts */
.counts{display:flex;flex-wrap:wrap;padding:0;overflow:hidden}
.count{flex:1 1 100px;padding:12px 16px;border-left:1px solid var(--line);margin-left:-1px}
.count b{display:block;font-size:24px;line-height:1.1}
.count span{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.05em}
.c-pass b{color:var(--pass)}.c-fail b{color:var(--fail)}.c-warn b{color:var(--warn)}
.c-skip b{color:var(--skip)}.c-waived b{color:var(--waived)}.c-observed b{color:var(--obs)}
.ratio{flex:1 1 100%;display:block;width:100%;height:6px}
.count-note{flex:1 1 100%;margin:0;padding:6px 16px 10px;font-size:12px;color:var(--muted)}
/* filters */
.filters{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:10px 14px;z-index:2}
html:not(.js) .filters{display:none}
.filters fieldset{border:0;margin:0;padding:0;display:flex;gap:6px;align-items:center;flex-wrap:wrap;min-width:0}
.filters legend{float:left;font-size:12px;color:var(--muted);margin-right:4px}
.chip{display:inline-flex;align-items:center;gap:4px;border:1px solid var(--line);border-radius:999px;padding:1px 9px;font-size:12.5px;cursor:pointer;user-select:none;background:var(--card);white-space:nowrap}
.chip input{margin:0;accent-color:var(--accent)}
.chip:has(input:not(:checked)){opacity:.5;text-decoration:line-through}
.filter-line{display:flex;flex-wrap:wrap;gap:6px;flex:1 1 320px;min-width:0}
.filters input[type=search]{flex:1 1 160px;min-width:0;padding:5px 10px;border:1px solid var(--line);border-radius:6px;font:inherit}
.filters button,button.copy{font:inherit;font-size:12.5px;padding:4px 10px;border:1px solid var(--line);border-radius:6px;background:var(--bg);cursor:pointer}
.shown{font-size:12px;color:var(--muted);margin-left:auto}
.empty{padding:16px;color:var(--muted);text-align:center}
/* areas and requirements */
section>h2.section{font-size:18px;margin:28px 0 10px}
.area{padding:0;overflow:hidden}
.area>header{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 12px;padding:10px 16px;background:var(--bg);border-bottom:1px solid var(--line)}
.area h3{font-size:16px}
.area-tally{font-size:12px;color:var(--muted)}
.req{border-bottom:1px solid var(--line);padding:10px 16px;scroll-margin-top:120px;min-width:0}
.req.s-fail{box-shadow:inset 4px 0 0 var(--fail)}.req.s-warn{box-shadow:inset 4px 0 0 #d4a72c}.req.s-waived{box-shadow:inset 4px 0 0 var(--waived)}
.req-head{display:grid;grid-template-columns:104px 64px minmax(0,auto) minmax(0,1fr);gap:10px;align-items:baseline}
.req-id{font-weight:600;overflow-wrap:anywhere;min-width:0}
.req-title{min-width:0}
.req-head .pill{display:block}
.req-body{margin:4px 0 0 188px;color:var(--muted);font-size:13px;min-width:0}
.req-body p{margin:2px 0}
.spec q{font-style:italic}.checks{white-space:nowrap}
.why{color:var(--fg)}
details.passed>summary{cursor:pointer;padding:8px 16px;color:var(--muted);overflow-wrap:anywhere}
details.passed[open]>summary{border-bottom:1px solid var(--line)}
.fold-ids{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:11.5px}
details.passed[open] .fold-ids{display:none}
.pill{display:inline-block;text-align:center;font-size:11px;font-weight:700;letter-spacing:.03em;padding:1px 8px;border-radius:4px;text-transform:uppercase;white-space:nowrap}
.st-pass{color:var(--pass);background:var(--pass-bg)}.st-fail{color:#fff;background:var(--fail)}
.st-warn{color:var(--warn);background:var(--warn-bg)}.st-skip,.st-error,.st-incomplete{color:var(--skip);background:var(--skip-bg)}
.st-waived{color:var(--waived);background:var(--waived-bg)}.st-observed,.st-observe{color:var(--obs);background:var(--obs-bg)}
.lv{border:1px solid var(--line);color:var(--muted);background:transparent}
.lv-MUST{border-color:var(--fg);color:var(--fg)}.lv-ADVISORY{border-style:dashed}
.waiver{border-left:3px solid var(--waived);padding:4px 10px;margin:6px 0;background:var(--waived-bg);color:var(--fg);border-radius:3px}
.obs{margin:4px 0;padding-left:18px;color:var(--fg);overflow-wrap:anywhere}
/* evidence */
details.evidence{margin:8px 0 4px;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg);min-width:0}
details.evidence>summary{cursor:pointer;padding:8px 12px;font-weight:600;overflow-wrap:anywhere}
details.evidence[open]>summary{border-bottom:1px solid var(--line)}
.ev{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px;padding:12px}
.ev h5{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 4px}
.ev .wide{grid-column:1/-1;margin:0;overflow-wrap:anywhere}
.exp{display:grid;grid-template-columns:80px minmax(0,1fr);gap:4px 10px;margin:0}
.exp dt{font-weight:600;color:var(--muted)}.exp dd{margin:0;overflow-wrap:anywhere}
pre.http{margin:0;padding:10px;background:#0d1117;color:#e6edf3;white-space:pre-wrap;overflow-wrap:anywhere}
pre.http.head{border-radius:6px 6px 0 0}pre.http.body{border-top:1px solid #30363d;border-radius:0 0 6px 6px}
pre.http.head:last-child{border-radius:6px}
pre.http .sl{color:#7ee787;font-weight:700}pre.http .sl.bad{color:#ff7b72}
pre.http .hn{color:#79c0ff}pre.http .trunc{color:#d29922}
div.msg:has(details.full-body[open]) pre.preview{display:none}
details.full-body>summary{cursor:pointer;font-size:12.5px;color:var(--accent);padding:4px 0}
.curl{display:flex;gap:8px;align-items:flex-start}
.curl code{flex:1;min-width:0;display:block;padding:8px 10px;background:var(--bg);border:1px solid var(--line);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;user-select:all}
html:not(.js) button.copy{display:none}
button.copy[data-copied]{border-color:var(--pass);color:var(--pass)}
.src{font-size:12px;color:var(--muted);padding:0 12px 10px;overflow-wrap:anywhere}
/* load */
.load-plan>h3.plan{font-size:15px;margin:18px 0 8px}
.load{padding:16px 20px;scroll-margin-top:20px}
.load h4{font-size:15px;margin:0 0 4px;display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.load .question{margin:0 0 4px;font-style:italic}
.load .sub{color:var(--muted);font-size:12.5px;margin:0 0 10px}
figure.chart{margin:8px 0 12px;scroll-margin-top:20px}
figure.chart svg{width:100%;height:auto;display:block;font-family:inherit}
figure.chart .chart-narrow{display:none}
figure.chart figcaption{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;color:var(--muted);margin-top:4px}
.sw{display:inline-block;width:12px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.sw-ok{background:#2da44e}.sw-429{background:#cf222e}.sw-other{background:#8c959f}
.sw-line{height:3px;background:#0969da;vertical-align:2px}.sw-ra{background:#fb8f44;opacity:.35}
.sw-mark{background:transparent;border:2px solid #a40e26;border-radius:50%;width:11px;height:11px}
.judgements{list-style:none;margin:8px 0 0;padding:0}
.judgements>li{padding:6px 0;border-top:1px solid var(--line);overflow-wrap:anywhere}
.judgements>li>code{font-size:12px;color:var(--muted)}
.judgements>li.fold{padding:0}.judgements .judgements>li{padding:6px 16px}
details.unjudged{margin-top:8px;font-size:13px}details.unjudged>summary{cursor:pointer;color:var(--muted)}
.notes{padding:16px 20px}.notes ul{margin:8px 0 0;padding-left:20px;overflow-wrap:anywhere}
footer{color:var(--muted);font-size:12px;text-align:center;margin-top:24px;overflow-wrap:anywhere}
@media (min-width:761px){.filters{position:sticky;top:0;box-shadow:0 4px 12px -8px rgba(31,35,40,.35)}}
@media (max-width:760px){
main{padding:12px 10px 32px}
.banner{grid-template-columns:minmax(0,1fr);padding:16px}
.seal{display:none}
.verdict{font-size:24px}
.meta{grid-template-columns:repeat(2,minmax(0,1fr));gap:6px 14px}
.meta .m-meta-spec,.meta .m-meta-target,.meta .m-meta-conformance-key{grid-column:1/-1}
.cmp{grid-template-columns:minmax(0,1fr);gap:2px}
.count{flex-basis:25%;padding:8px 10px}.count b{font-size:20px}.count span{font-size:10.5px;letter-spacing:0}
.req{padding:10px 12px;scroll-margin-top:10px}
.req-head{display:flex;flex-wrap:wrap;gap:4px 8px}
.req-head .pill{display:inline-block}
.req-id{flex:1 1 auto}
.req-title{flex:1 1 100%}
.req-body{margin-left:0}
.ev{grid-template-columns:minmax(0,1fr);padding:10px}
.curl{flex-direction:column}.curl code{align-self:stretch}
.load{padding:12px}
.plans{padding:12px}.plan-chips{display:flex}.matrix thead th{min-width:130px}.matrix th:first-child{min-width:130px;max-width:150px}
figure.chart .chart-wide{display:none}figure.chart .chart-narrow{display:block}
.filters{padding:8px 10px}.shown{margin-left:0}
}
@media print{
body{background:#fff;font-size:11px}main{max-width:none;padding:0}
.filters,.no-print,button.copy,html.js pre.preview{display:none!important}
.card{break-inside:avoid-page;border-color:#999}.area{break-inside:auto}
.req{break-inside:avoid}
figure.chart .chart-narrow{display:none!important}figure.chart .chart-wide{display:block!important}
.matrix-scroll{overflow:visible}.matrix th:first-child{position:static}
pre.http{background:#f6f8fa;color:#000;border:1px solid #ccc}
pre.http .sl,pre.http .hn,pre.http .trunc{color:#000}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`;
