/// The style sheet and script inlined into every HTML report (the file needs nothing else to display).
enum HTMLReportAssets {
    /// The statuses a filter button can select, with their labels.
    static let statuses: [(key: String, label: String)] = [
        ("failed", "Failed"), ("errored", "Errored"), ("cancelled", "Cancelled"), ("flaky", "Flaky"),
        ("passed", "Passed"),
        ("skipped", "Skipped"), ("notRun", "Not run"),
    ]

    static var style: String {
        var css = """
            :root{--passed:#1a7f37;--flaky:#8250df;--failed:#cf222e;--errored:#bc4c00;--cancelled:#9a6700;--skipped:#6e7781;\
            --notRun:#8c959f;--line:#d0d7de;--soft:#f6f8fa}
            *{box-sizing:border-box}
            body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
            header{padding:16px 24px;border-bottom:1px solid var(--line);background:var(--soft)}
            h1{font-size:20px;margin:0 0 4px}
            .meta{color:#57606a;margin:0 0 12px}
            .interrupted{color:var(--cancelled);font-weight:600}
            .filters{display:flex;flex-wrap:wrap;gap:6px}
            .filters button{font:inherit;border:1px solid var(--line);background:#fff;border-radius:16px;\
            padding:3px 12px;cursor:pointer}
            .filters button[aria-pressed=true]{background:#1f2328;color:#fff;border-color:#1f2328}
            main{padding:12px 24px 40px}
            .test{border:1px solid var(--line);border-left:6px solid var(--skipped);border-radius:6px;margin:8px 0}
            .test>details>summary{padding:8px 12px;cursor:pointer;list-style-position:inside}
            .badge{display:inline-block;min-width:72px;text-align:center;border-radius:10px;color:#fff;\
            font-size:12px;padding:1px 8px;margin-right:6px;background:var(--skipped)}
            .suite{color:#57606a}
            .time,.loc{color:#57606a;font-size:12px;margin-left:8px}
            .body{padding:0 12px 12px}
            .problem{background:#fff1f0;border:1px solid #ffcecb;border-radius:6px;padding:8px 10px;margin:6px 0}
            .problem dl{margin:4px 0 0;display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}
            .problem dt{color:#57606a}
            .problem dd{margin:0}
            .reproduce{margin:6px 0}
            .reproduce .label{color:#57606a;font-size:12px}
            .reproduce pre{margin:2px 0;white-space:pre-wrap;word-break:break-all}
            .reproduce .note{margin:2px 0;color:#57606a;font-size:12px}
            code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
            pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:8px;overflow:auto;\
            white-space:pre-wrap;word-break:break-all;max-height:400px;margin:4px 0}
            .step{border-top:1px dashed var(--line);padding-top:8px;margin-top:8px}
            .step h3{font-size:13px;margin:0 0 6px;font-weight:600}
            .bar{display:flex;height:10px;border-radius:3px;overflow:hidden;background:var(--soft);max-width:600px}
            .bar span{display:block;height:100%}
            .dns{background:#8250df}.connect{background:#0969da}.tls{background:#bf3989}
            .wait{background:#1a7f37}.download{background:#9a6700}
            .legend{font-size:12px;color:#57606a;margin:2px 0 6px}
            .legend i{display:inline-block;width:9px;height:9px;margin:0 3px 0 8px;border-radius:2px}
            table{border-collapse:collapse;font-size:12px;margin:4px 0}
            td{border:1px solid var(--line);padding:2px 6px;vertical-align:top;word-break:break-all}
            td:first-child{white-space:nowrap;color:#57606a}
            .empty{color:#57606a;font-style:italic}
            .coverage{margin:0 0 16px}.coverage h2{font-size:15px;margin:8px 0 2px}
            .coverage th{border:1px solid var(--line);padding:2px 6px;text-align:left}
            .coverage .hit{color:var(--passed)}.coverage .miss{color:var(--failed)}

            """
        for (key, _) in statuses {
            css += ".test[data-status=\(key)]{border-left-color:var(--\(key))}"
            css += ".test[data-status=\(key)] .badge{background:var(--\(key))}\n"
            css += "body[data-filter=\(key)] .test:not([data-status=\(key)]){display:none}\n"
        }
        return css
    }

    /// Filter buttons: set `data-filter` on the body; the style sheet hides the other tests. No server needed.
    /// The filter also follows the address (`report.html#status=failed`), so a link can open a filtered view.
    static let script = """
        (function () {
          var buttons = document.querySelectorAll('.filters button');
          function select(filter) {
            document.body.setAttribute('data-filter', filter);
            for (var i = 0; i < buttons.length; i++) {
              buttons[i].setAttribute('aria-pressed', String(buttons[i].getAttribute('data-filter') === filter));
            }
          }
          for (var i = 0; i < buttons.length; i++) {
            buttons[i].addEventListener('click', function (event) {
              var filter = event.currentTarget.getAttribute('data-filter');
              select(filter);
              try { history.replaceState(null, '', '#status=' + filter); } catch (ignored) {}
            });
          }
          var match = /^#status=([A-Za-z]+)$/.exec(location.hash);
          if (match && document.querySelector('.filters button[data-filter="' + match[1] + '"]')) { select(match[1]); }
        })();
        """
}
