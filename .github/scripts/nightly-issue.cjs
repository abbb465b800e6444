/**
 * The trace a failing nightly production certification leaves in the issue
 * tracker (job "report" of .github/workflows/nightly-production.yml, through
 * actions/github-script):
 * - a failing night opens one issue labelled `nightly-certification` (or, when
 *   one is open, updates its title and description and adds a comment), naming
 *   the failing requirement ids read from certification.json, what changed since
 *   the previous night, or why no report was written;
 * - a passing night (certified, or passed but incomplete) comments on the open
 *   issue and closes it;
 * - a cancelled run changes nothing.
 * The issue is recognised by a hidden marker in its description, so an issue a
 * person opened with the same label is never taken over. Text that comes from
 * the server (abort reasons, diagnoses) is reduced to one line without
 * addresses, mentions or Markdown. Also appends a few lines to the job summary.
 *
 * CommonJS on purpose: github-script loads it with require().
 */
'use strict';

const fs = require('node:fs');

const LABEL = 'nightly-certification';
const MARKER = '<!-- animal-store: nightly production certification -->';
const WORKFLOW = '.github/workflows/nightly-production.yml';
const LIST_CAP = 20;

/** What each exit code of `npm start` means (README's table). */
const EXIT_MEANINGS = {
  0: 'certified, or passed but incomplete',
  1: 'not conformant: a MUST requirement failed',
  2: 'usage or configuration error',
  3: 'the target was unreachable',
  4: 'incomplete under --require-complete',
  5: 'the API key was refused',
  6: 'stopped early: deadline, request budget, or a wait longer than --max-wait-ms',
  130: 'interrupted',
};

/** certification.json, or undefined when it is missing or not a certification. */
function readReport(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    return r && typeof r === 'object' && Array.isArray(r.requirements) ? r : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One line of untrusted text, safe in an issue: no addresses (the production
 * address is a secret), no mentions, no Markdown or HTML, at most `max` characters.
 */
function clean(text, max = 300) {
  let s = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()[\]]*/gi, '‹address›')
    .replace(/[\\`*_{}[\]()#+!|~>]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/@/g, '&#64;');
  if (s.length > max) s = `${s.slice(0, max - 1)}…`;
  return s;
}

/** A requirement id as the suite writes them (letters, digits, dashes); anything else is dropped. */
function safeId(id) {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/.test(String(id)) ? String(id) : '(unnamed)';
}

/** The certificate's headline, worded as the suite words it. */
function headlineOf(report) {
  if (report.interrupted) return 'INTERRUPTED';
  if (report.keyRefused) return 'KEY REFUSED';
  if (report.outcome === 'not-conformant') return 'NOT CONFORMANT';
  if (report.abort) return 'STOPPED EARLY';
  if (report.outcome === 'incomplete') return 'PASSED, INCOMPLETE';
  return 'CERTIFIED';
}

function idList(ids) {
  const list = ids.slice(0, LIST_CAP).map((id) => `\`${safeId(id)}\``);
  return `${list.join(', ')}${ids.length > LIST_CAP ? ` and ${ids.length - LIST_CAP} more` : ''}`;
}

/**
 * The night's verdict from the certify job's result, the certify step's exit
 * code, the configuration check's error and certification.json (any may be
 * missing): 'pass', 'fail' or 'cancelled', a one-line headline, the failing
 * requirements and Markdown lines of detail.
 */
function assess({ result, exitCode, configError, report }) {
  const code = exitCode === undefined || exitCode === null || exitCode === '' ? undefined : String(exitCode);
  const meaning = code === undefined ? undefined : (EXIT_MEANINGS[code] ?? 'unexpected exit code');
  const failing = report
    ? report.requirements
        .filter((r) => r && r.status === 'fail')
        .map((r) => ({ id: safeId(r.id), level: clean(r.level, 10), title: clean(r.title, 200) }))
    : [];
  const lines = [];
  if (result === 'cancelled') return { status: 'cancelled', headline: 'cancelled (by hand or by the job timeout)', failing, lines };
  const status = result === 'success' ? 'pass' : 'fail';
  let headline;
  if (report) {
    headline = headlineOf(report);
    if (failing.length) headline += `: ${failing.length} requirement${failing.length === 1 ? '' : 's'} failed`;
    if (failing.length) {
      lines.push(`**Failing requirements (${failing.length}):**`, '');
      for (const f of failing.slice(0, LIST_CAP)) lines.push(`- \`${f.id}\` (${f.level}): ${f.title}`);
      if (failing.length > LIST_CAP) lines.push(`- … and ${failing.length - LIST_CAP} more (see certification.json)`);
      lines.push('');
    }
    if (report.abort) lines.push(`**Stopped early:** ${clean(report.abort)}`);
    if (report.diagnosis) lines.push(`**Diagnosis:** ${clean(report.diagnosis)}`);
    const c = report.comparison;
    if (c && typeof c === 'object') {
      const since = c.baseline && c.baseline.startedAt ? ` (compared with the run of ${clean(c.baseline.startedAt, 40)})` : '';
      const parts = [
        ['New problems', c.newProblems],
        ['Still failing', c.stillFailing],
        ['Fixed', c.fixed],
        ['Flapping', c.flapping],
      ].filter(([, ids]) => Array.isArray(ids) && ids.length);
      if (parts.length) {
        lines.push(`**Since the previous night${since}:**`, '');
        for (const [name, ids] of parts) lines.push(`- ${name}: ${idList(ids)}`);
        lines.push('');
      } else lines.push(`**Since the previous night${since}:** no change.`);
    } else lines.push('**Since the previous night:** no earlier certification to compare with.');
    const counts = report.counts || {};
    lines.push(
      `**Counts:** ${['pass', 'fail', 'warn', 'skip', 'waived', 'observed'].map((k) => `${Number(counts[k]) || 0} ${k}`).join(' · ')}`,
    );
    const engines = [...new Set((report.load || []).map((l) => l && l.engine).filter((e) => e === 'k6' || e === 'node'))];
    if (engines.length) lines.push(`**Load engine:** ${engines.join(', ')}`);
    if (code !== undefined) lines.push(`**Exit code:** ${code} (${meaning})`);
    if (status === 'fail' && code === '0') lines.push('The certification passed, but a later step of the job failed: see the run.');
  } else if (configError) {
    headline = 'not run: its configuration is incomplete';
    lines.push(`**Configuration:** ${clean(configError, 1500)}`);
  } else if (code !== undefined) {
    headline = status === 'pass' ? `exit ${code}` : `exit ${code}, ${meaning}; no report was written`;
    lines.push(`**Exit code:** ${code} (${meaning}). The certify step's log says why.`);
  } else {
    headline = status === 'pass' ? 'passed' : 'failed before the certification ran';
    lines.push('The job failed before the certify step ran: see the first failed step of the run.');
  }
  return { status, headline, failing, lines };
}

function runLink(context) {
  const url = `${context.serverUrl}/${context.repo.owner}/${context.repo.repo}/actions/runs/${context.runId}`;
  return `[run ${context.runNumber}](${url})`;
}

function title(verdict) {
  const ids = verdict.failing.length
    ? ` (${verdict.failing
        .slice(0, 5)
        .map((f) => f.id)
        .join(', ')}${verdict.failing.length > 5 ? ', …' : ''})`
    : '';
  const t = `Nightly production certification failing: ${verdict.headline}${ids}`;
  return t.length > 250 ? `${t.slice(0, 249)}…` : t;
}

/** A failing night's report: the issue's description (with the marker) or a comment. */
function failureText(verdict, context, { description }) {
  const date = new Date().toISOString().slice(0, 10);
  const lines = [];
  if (description) lines.push(MARKER, '');
  lines.push(`### ❌ ${verdict.headline}`, '', `${runLink(context)} on ${date} (${clean(context.eventName, 40)}).`, '', ...verdict.lines);
  lines.push(
    '',
    `The full certificate with the evidence is \`index.html\` in the run's artifact (also \`certification.json\`, \`junit.xml\`).`,
  );
  if (description)
    lines.push(
      '',
      '---',
      `Opened and kept up to date by ${WORKFLOW}: each failing night updates this description and adds a comment; the first passing night closes the issue.`,
    );
  return lines.join('\n');
}

/** The open issue this workflow opened, if any (found by its marker; pull requests and other issues are ignored). */
async function findIssue(github, repo) {
  const open = await github.paginate(github.rest.issues.listForRepo, { ...repo, state: 'open', labels: LABEL, per_page: 100 });
  return open.find((i) => !i.pull_request && typeof i.body === 'string' && i.body.includes(MARKER));
}

function appendSummary(env, lines) {
  if (env.GITHUB_STEP_SUMMARY) fs.appendFileSync(env.GITHUB_STEP_SUMMARY, `${lines.join('\n')}\n`);
}

/** Entry point for actions/github-script. Returns what it did: { action: 'none'|'opened'|'updated'|'closed', number? }. */
async function main({ github, context, core, env = process.env }) {
  const report = env.REPORT_FILE ? readReport(env.REPORT_FILE) : undefined;
  const verdict = assess({ result: env.CERTIFY_RESULT, exitCode: env.EXIT_CODE, configError: env.CONFIG_ERROR, report });
  const repo = { owner: context.repo.owner, repo: context.repo.repo };
  if (verdict.status === 'cancelled') {
    core.notice('The certify job was cancelled (by hand or by its timeout): the nightly issue is left as it is.');
    appendSummary(env, ['### Nightly issue', '', 'The certify job was cancelled: the nightly issue is left as it is.']);
    return { action: 'none' };
  }
  const issue = await findIssue(github, repo);
  if (verdict.status === 'pass') {
    if (!issue) {
      appendSummary(env, ['### Nightly issue', '', `Passed (${verdict.headline}); no nightly issue is open.`]);
      return { action: 'none' };
    }
    await github.rest.issues.createComment({
      ...repo,
      issue_number: issue.number,
      body: `### ✅ Passing again: ${verdict.headline}\n\n${runLink(context)}. Closing.`,
    });
    await github.rest.issues.update({ ...repo, issue_number: issue.number, state: 'closed', state_reason: 'completed' });
    appendSummary(env, ['### Nightly issue', '', `Passed (${verdict.headline}): closed #${issue.number}.`]);
    return { action: 'closed', number: issue.number };
  }
  core.error(`Nightly production certification: ${verdict.headline}`, { title: 'Nightly certification failed' });
  if (issue) {
    await github.rest.issues.update({
      ...repo,
      issue_number: issue.number,
      title: title(verdict),
      body: failureText(verdict, context, { description: true }),
    });
    await github.rest.issues.createComment({
      ...repo,
      issue_number: issue.number,
      body: failureText(verdict, context, { description: false }),
    });
    appendSummary(env, ['### Nightly issue', '', `❌ ${verdict.headline}: updated #${issue.number}.`]);
    return { action: 'updated', number: issue.number };
  }
  try {
    await github.rest.issues.createLabel({
      ...repo,
      name: LABEL,
      color: 'b60205',
      description: 'Opened by the nightly production certification',
    });
  } catch (e) {
    if (!e || e.status !== 422) throw e; // 422: the label exists already
  }
  const created = await github.rest.issues.create({
    ...repo,
    title: title(verdict),
    body: failureText(verdict, context, { description: true }),
    labels: [LABEL],
  });
  appendSummary(env, ['### Nightly issue', '', `❌ ${verdict.headline}: opened #${created.data.number}.`]);
  return { action: 'opened', number: created.data.number };
}

module.exports = { main, assess, clean, readReport, headlineOf, LABEL, MARKER, EXIT_MEANINGS };
