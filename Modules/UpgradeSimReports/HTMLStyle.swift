/// The HTML report's style sheet: readable from a phone (390 px) to a desktop; only a timeline's
/// own box may be wider than the page, and it scrolls sideways inside itself.
enum HTMLStyle {
    /// The CSS, inlined in the page's head.
    static let sheet = """
        :root { color-scheme: light; }
        * { box-sizing: border-box; }
        body { margin: 0; background: #f5f6f8; color: #1d1f23;
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        main { max-width: 1240px; margin: 0 auto; padding: 16px; }
        h1 { font-size: 1.45rem; margin: 0 0 12px; overflow-wrap: anywhere; }
        h2 { font-size: 1.15rem; margin: 22px 0 6px; overflow-wrap: anywhere; }
        h3 { font-size: 1rem; margin: 0 0 4px; overflow-wrap: anywhere; }
        p, li, summary { overflow-wrap: anywhere; }
        code { font: 0.85em ui-monospace, "DejaVu Sans Mono", monospace; background: #f0f1f4; padding: 0 3px; }
        .stats { display: flex; flex-wrap: wrap; gap: 8px; margin: 0; }
        .stats div { background: #fff; border: 1px solid #d9dce1; border-radius: 8px; padding: 6px 12px; min-width: 88px; }
        .stats dt { font-size: 0.8rem; color: #555b66; }
        .stats dd { margin: 0; font-size: 1.3rem; font-weight: 650; }
        .legend { background: #fff; border: 1px solid #d9dce1; border-radius: 8px; padding: 8px 12px; margin: 12px 0; }
        .legend summary { font-weight: 650; cursor: pointer; }
        .legend ul { display: flex; flex-wrap: wrap; gap: 6px 18px; list-style: none; padding: 0; margin: 8px 0 4px; }
        .legend li { display: flex; align-items: center; gap: 6px; font-size: 0.85rem; max-width: 100%; }
        .legend p { font-size: 0.85rem; color: #555b66; margin: 4px 0 0; }
        svg.sw { flex: none; }
        section.h { background: #fff; border: 1px solid #d9dce1; border-left: 6px solid #2e7d32; border-radius: 8px;
          padding: 10px 12px; margin: 14px 0; }
        section.h.fail { border-left-color: #c62828; }
        .badge { display: inline-block; font-size: 0.8rem; font-weight: 700; padding: 1px 7px; border-radius: 10px;
          background: #dff0e1; color: #1b5e20; margin-right: 4px; }
        .fail .badge { background: #fbe0e0; color: #8e0000; }
        .meta { margin: 0 0 4px; color: #555b66; font-size: 0.85rem; }
        .tlw { display: inline-flex; max-width: 100%; align-items: flex-start; margin: 6px 0; border: 1px solid #eceef1;
          border-radius: 4px; vertical-align: top; }
        .tlw > svg { flex: none; }
        .box { overflow-x: auto; min-width: 0; flex: 0 1 auto; }
        .box:focus { outline: 2px solid #1565c0; }
        ul.mm { margin: 6px 0; padding-left: 20px; color: #8e0000; }
        .story { font-size: 0.9rem; }
        .story summary { cursor: pointer; color: #3a4150; }
        table.fx { border-collapse: collapse; font-size: 0.9rem; width: 100%; }
        table.fx td, table.fx th { border-bottom: 1px solid #e3e5e9; padding: 4px 6px; text-align: left;
          overflow-wrap: anywhere; }
        table.fx th, table.fx td:first-child { overflow-wrap: normal; white-space: nowrap; }
        svg.tl, svg.tll { display: block; font: 12px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        .rl rect { fill: #f3f4f6; stroke: #fff; }
        .rl text { fill: #22252b; }
        .rl text.v { fill: #666c78; font-size: 11px; }
        .rl.floor rect { fill: #f1e4c6; }
        .rl.focus rect { fill: #ffe1a6; } .rl.focus text { font-weight: 700; }
        .hd rect { fill: #eceff4; }
        .hd.fresh rect { fill: #dcecff; }
        .hd.down rect { fill: #fde6c8; }
        .hd.bad rect { fill: #fbdcdc; }
        .hd .n { font-size: 10px; fill: #666c78; }
        .hd .ver { font-weight: 700; }
        .hd .oc { font-size: 10.5px; }
        .hd .oc.wrong { fill: #b00020; font-weight: 700; }
        .cell text { font-size: 12px; font-weight: 650; }
        .c-ok rect { fill: #c8e8cf; } .c-ok text { fill: #1b5e20; }
        .c-fail rect { fill: #f7c3bd; } .c-fail text { fill: #8e0000; }
        .c-crash rect { fill: #8e1b1b; } .c-crash text { fill: #fff; }
        .c-expired rect { fill: #cfe3f5; stroke: #1565c0; stroke-dasharray: 3 2; } .c-expired text { fill: #0d3c6e; }
        .c-gone rect { fill: #d8cfee; } .c-gone text { fill: #40246e; }
        .c-wait rect { fill: #ffecb0; } .c-wait text { fill: #6a4f00; }
        .c-done rect { fill: #f4f5f7; } .c-done text { fill: #7d828c; }
        .c-above rect { fill: #fff; stroke: #dfe2e6; } .c-above text { fill: #9aa0aa; }
        .c-nobuild rect { fill: #d5d8dd; } .c-nobuild text { fill: #4f5560; }
        .cell.miss rect { stroke: #d00000; stroke-width: 2; stroke-dasharray: 4 2; }
        .cell.extra rect { stroke: #d00000; stroke-width: 2; }
        .badcol { fill: none; stroke: #d00000; stroke-width: 2; }
        .notecol { fill: none; stroke: #c77700; stroke-width: 2; stroke-dasharray: 6 3; }
        .mark { fill: none; stroke: #1565c0; stroke-width: 3; pointer-events: none; }
        .markexp line { stroke: #d00000; stroke-width: 2; stroke-dasharray: 5 3; }
        .ft text { font-size: 11px; fill: #555b66; }
        .ft.moved text { fill: #1565c0; font-weight: 700; }
        .ft.wrong text { fill: #b00020; font-weight: 700; }
        @media (max-width: 600px) {
          main { padding: 8px; } body { font-size: 14px; } h1 { font-size: 1.2rem; }
          .legend li { font-size: 0.8rem; } table.fx th { white-space: normal; }
          svg.tll { width: 168px; }
        }

        """
}
