import { describe, expect, it } from 'vitest';
import { sanitizeReportHtml } from './sanitize-report-html.js';

describe('sanitizeReportHtml keeps what TipTap writes', () => {
  it.each([
    '<h1 style="text-align:center">Clinic</h1>',
    '<p style="text-align:right">Right</p>',
    '<p><strong>b</strong><b>b</b><em>i</em><i>i</i><u>u</u><s>s</s><br /></p>',
    '<ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol><hr />',
    '<p><span style="font-size:14px;font-family:Georgia, serif;color:#ff0000">styled</span></p>',
    '<table><colgroup><col /></colgroup><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td rowspan="2">c</td></tr></tbody></table>',
    '<img src="/api/assets/0123456789abcdef0123456789abcdef" alt="logo" />',
    '<img src="data:image/png;base64,iVBORw0KGgo=" />',
    '<img src="data:image/jpeg;base64,/9j/4AAQ" />',
  ])('%s', (html) => {
    expect(sanitizeReportHtml(html)).toBe(html);
  });
});

describe('sanitizeReportHtml removes what can run or leak', () => {
  it.each<[string, string]>([
    ['<p>a<script>alert(1)</script>b</p>', '<p>ab</p>'],
    ['<p onclick="alert(1)" onmouseover="x()">hi</p>', '<p>hi</p>'],
    ['<img src="x" onerror="alert(1)" />', ''],
    ['<img src="javascript:alert(1)" />', ''],
    ['<img src="//evil.example/x.png" />', ''],
    // Another site's image is a tracking pixel on every screen and share page that shows the report.
    ['<img src="https://cdn.example.com/logo.png" />', ''],
    ['<p>a<img src="http://tracker.example/p.gif?id=1" alt="" />b</p>', '<p>ab</p>'],
    ['<img src="data:image/svg+xml;base64,PHN2Zz4=" />', ''],
    ['<img src="data:text/html;base64,PHNjcmlwdD4=" />', ''],
    ['<img src="/api/other/1" />', ''],
    ['<a href="javascript:alert(1)">click</a>', 'click'],
    ['<iframe src="https://evil.example"></iframe><p>x</p>', '<p>x</p>'],
    ['<style>body{display:none}</style><p>x</p>', '<p>x</p>'],
    ['<svg><script>alert(1)</script></svg>', ''],
    ['<p style="background:url(javascript:alert(1));color:red">x</p>', '<p style="color:red">x</p>'],
    ['<span style="font-family:expression(alert(1))">x</span>', '<span>x</span>'],
    ['<p class="x" id="y" data-x="1">x</p>', '<p>x</p>'],
    ['<form action="/x"><input value="1" /><button>go</button></form>', 'go'],
    ['<td colspan="2" onclick="x()">c</td>', '<td colspan="2">c</td>'],
    ['<p>1 &lt; 2 &amp; <b>ok</b></p>', '<p>1 &lt; 2 &amp; <b>ok</b></p>'],
    ['<!-- <script>alert(1)</script> --><p>x</p>', '<p>x</p>'],
  ])('%s', (html, clean) => {
    expect(sanitizeReportHtml(html)).toBe(clean);
  });
});
