"""A pyvis network as one HTML page: the graph library inline, or from the app's own server.

A page shown inside the app references the vis-network files the app serves once
(`static/` beside `app.py`, at `app/static/…`), so each page is a few tens of KB instead
of 0.7 MB. A page meant to stand alone (`library=None`) carries the library inline. Either
way no tag that fetches from another host is left in the page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pyvis.network import Network

from engine import EngineError

# The vis-network build pyvis bundles, copied byte for byte (with its licence) beside app.py.
VIS_VERSION = "9.1.2"
LIBRARY_DIR = f"vis-network-{VIS_VERSION}"
LIBRARY_SCRIPT = "vis-network.min.js"
LIBRARY_STYLE = "vis-network.css"
# Where Streamlit serves `static/` (server.enableStaticServing); relative, so it resolves
# against the app page a graph frame (a srcdoc iframe) sits in, under any base path.
SERVED_LIBRARY = f"app/static/{LIBRARY_DIR}/"
STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

_remote_link = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?\s*(?:https?:)?//[^>]*>", re.I | re.S)
_remote_script = re.compile(
    r"<script\b[^>]*\bsrc\s*=\s*[\"']?\s*(?:https?:)?//[^>]*>\s*</script>", re.I | re.S
)
_source_map = re.compile(r"//# sourceMappingURL=[^\s<]*")
_empty_heading = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>", re.S)
_network_call = "network = new vis.Network(container, data, options);"
# vis-network shows a string title as plain text; the tips are built escaped, so they are
# turned into elements here to keep their line breaks and emphasis.
_tip_script = """
                  [nodes, edges].forEach(function (items) {
                    items.forEach(function (item) {
                      if (typeof item.tip === "string") {
                        var box = document.createElement("div");
                        box.innerHTML = item.tip;
                        items.update({id: item.id, title: box});
                      }
                    });
                  });
"""
# vis fits the nodes, not their labels: zoom out once so labels at the edges are not cut,
# but never so far that the smallest label is drawn under MIN_PX pixels (0: no floor); a
# narrow frame then shows the middle of the graph, and the rest is a drag away.
_margin_script = """
                  window.synapseNetwork = network;  // for a reader's console and the tests
                  network.once("afterDrawing", function () {
                    var smallest = Infinity, xs = [], ys = [];
                    [[nodes, 14], [edges, 11]].forEach(function (pair) {
                      pair[0].forEach(function (item) {
                        if (String(item.label || "").trim()) {
                          var size = item.font && item.font.size ? item.font.size : pair[1];
                          smallest = Math.min(smallest, size);
                          if (pair[0] === nodes && typeof item.x === "number") {
                            xs.push(item.x);
                            ys.push(item.y);
                          }
                        }
                      });
                    });
                    var floor = MIN_PX > 0 && smallest < Infinity ? MIN_PX / smallest : 0;
                    var scale = network.getScale() * 0.85;
                    if (scale >= floor || !xs.length) {
                      network.moveTo({scale: scale});
                    } else {
                      // Zoomed in to the floor: the labelled nodes stay in the middle of view.
                      var mid = function (values) {
                        return (Math.min.apply(null, values) + Math.max.apply(null, values)) / 2;
                      };
                      network.moveTo({scale: floor, position: {x: mid(xs), y: mid(ys)}});
                    }
                    // Drawn once, labels measured: what a reader (or a test) sees is now set.
                    window.synapseDrawn = true;
                  });
"""
# On a dark app the frame takes the app's background, and what is drawn in grey for a white
# page is redrawn to read on it. The scheme is read from the page the frame sits in, so it
# follows the viewer's choice (system or settings menu) with no rerun and no cache per
# scheme, and it is read again whenever the app's theme changes while the graph is shown
# (the frame would otherwise keep the scheme it was drawn in); a page opened on its own
# (a download) has no app around it and stays light.
# The greys the graphs draw edges in, named here so the dark redraw below follows them.
SEED_EDGE = "#c8c8c8"  # question to a retrieved note, once the walk has moved on
PAST_EDGE = "#8a8a8a"  # an edge revealed at an earlier step
PREMISE_EDGE = "#555555"  # a claim resting on another
_dark_edges = {PREMISE_EDGE: "#b8b8b8", SEED_EDGE: "#80868f", PAST_EDGE: "#9a9a9a"}
# vis-network's own edge label colours, put back when the app turns light again.
_light_edge_font = {"color": "#343434", "strokeColor": "#ffffff"}
_dark_script = (
    """
                  var darkEdges = """
    + json.dumps(_dark_edges)
    + """, lightEdgeFont = """
    + json.dumps(_light_edge_font)
    + """;
                  // What the dark redraw changed, as [id, light value] pairs to put back.
                  var scheme = {dark: null, fonts: [], colours: []};
                  var appBackground = function () {
                    try {
                      var app = window.parent.document.querySelector('[data-testid="stApp"]');
                      var colour = getComputedStyle(app).backgroundColor;
                      var rgb = (colour.match(/[0-9.]+/g) || []).map(Number);
                      return rgb.length >= 3 && rgb[0] + rgb[1] + rgb[2] < 288 ? colour : null;
                    } catch (err) {
                      return null;
                    }
                  };
                  var applyScheme = function () {
                    var background = appBackground();
                    if (background === scheme.dark) {
                      return;
                    }
                    var fill = background || "";
                    document.body.style.background = fill;
                    container.style.background = fill;
                    container.parentNode.style.background = fill;
                    var font = background
                      ? {color: "#e8e8e8", strokeColor: background}
                      : lightEdgeFont;
                    Object.assign(options.edges.font, font);
                    if (network) {
                      network.setOptions({edges: {font: font}});
                    }
                    if (background && !scheme.dark) {
                      document.documentElement.dataset.scheme = "dark";
                      // An unlabelled node's blank label would show its pale backing as a tick.
                      nodes.forEach(function (node) {
                        if (node.font && node.font.background && !String(node.label).trim()) {
                          scheme.fonts.push([node.id, node.font]);
                          var clear = Object.assign({}, node.font, {background: "rgba(0,0,0,0)"});
                          nodes.update({id: node.id, font: clear});
                        }
                      });
                      edges.forEach(function (edge) {
                        if (typeof edge.color === "string" && darkEdges[edge.color]) {
                          scheme.colours.push([edge.id, edge.color]);
                          edges.update({id: edge.id, color: darkEdges[edge.color]});
                        }
                      });
                    } else if (!background) {
                      delete document.documentElement.dataset.scheme;
                      scheme.fonts.forEach(function (kept) {
                        nodes.update({id: kept[0], font: kept[1]});
                      });
                      scheme.colours.forEach(function (kept) {
                        edges.update({id: kept[0], color: kept[1]});
                      });
                      scheme.fonts = [];
                      scheme.colours = [];
                    }
                    scheme.dark = background;
                  };
                  applyScheme();
"""
)
# Once drawn, the frame follows a theme change: the system's scheme (the frame's own media
# query sees it too), or the app's settings menu (which restyles the app's root element).
# The observer sits on the app's element, so it is let go when the frame goes (each step of
# Play loads a new frame), or every frame drawn would stay alive behind it.
_scheme_watch = """
                  try {
                    var later = function () { setTimeout(applyScheme, 50); };
                    var root = window.parent.document.querySelector('[data-testid="stApp"]');
                    if (root && root !== document.body) {
                      var watch = new MutationObserver(later);
                      watch.observe(root, {attributes: true});
                      window.addEventListener("pagehide", function () { watch.disconnect(); });
                    }
                    window.matchMedia("(prefers-color-scheme: dark)")
                      .addEventListener("change", later);
                  } catch (err) {}
"""
_tip_style = (
    "<style>.vis-tooltip{white-space:normal!important;max-width:380px;font-family:sans-serif;"
    "font-size:13px;line-height:1.35}body{margin:0}#mynetwork{border:none!important}</style>"
)


def served_files() -> tuple[Path, ...]:
    """The library files the app serves, in the order a page loads them."""
    return (STATIC_DIR / LIBRARY_DIR / LIBRARY_STYLE, STATIC_DIR / LIBRARY_DIR / LIBRARY_SCRIPT)


def library_tags(base: str) -> str:
    """The tags that load the served library from `base` (an address ending in a slash)."""
    if not base.endswith("/") or "//" in base or not re.fullmatch(r"[\w./-]+", base):
        raise EngineError(f"not a same-origin library address: {base!r}")
    return (
        f'<link rel="stylesheet" href="{base}{LIBRARY_STYLE}">'
        f'<script src="{base}{LIBRARY_SCRIPT}"></script>'
    )


def options(*, hierarchical: bool) -> dict[str, Any]:
    """The vis-network options: fixed layout, hover tips, HTML labels, small arrows."""
    layout: dict[str, Any] = {"randomSeed": 7}
    if hierarchical:
        layout["hierarchical"] = {
            "enabled": True,
            "direction": "UD",
            "sortMethod": "directed",
            "levelSeparation": 130,
            "nodeSpacing": 280,
        }
    return {
        "physics": {"enabled": False},
        "layout": layout,
        "interaction": {"hover": True, "tooltipDelay": 120, "navigationButtons": False},
        "nodes": {"font": {"multi": "html", "size": 14, "face": "sans-serif"}},
        "edges": {
            "font": {"multi": "html", "size": 11, "align": "horizontal", "face": "sans-serif"},
            "arrows": {"to": {"enabled": True, "scaleFactor": 0.6}},
            "smooth": False,
        },
    }


def network(height: int, *, hierarchical: bool = False, library: str | None = None) -> Network:
    """An empty directed network `height` px tall; its page loads the library from `library`
    (the served copy's address) or, when None, carries it inline."""
    net = Network(
        height=f"{int(height)}px",
        width="100%",
        directed=True,
        # "remote" writes CDN tags, which `render` strips and replaces with the served copy.
        cdn_resources="in_line" if library is None else "remote",
        bgcolor="#ffffff",
    )
    net.options = options(hierarchical=hierarchical)
    return net


def render(net: Network, library: str | None = None, *, min_label_px: float = 0) -> str:
    """The network as one HTML page with no remote tag left.

    With `library` None every resource is inline; otherwise the page loads vis-network from
    that same-origin address (`SERVED_LIBRARY` in the app). `net` must come from `network`
    with the same `library`. `min_label_px` is the least a label may be drawn on screen:
    the first view zooms in to it when fitting the whole graph would draw labels smaller.
    """
    page = net.generate_html(notebook=False)
    if _network_call not in page:
        raise EngineError("the pyvis template changed: cannot attach node tips")
    page = page.replace(
        _network_call,
        _tip_script
        + _dark_script
        + "                  "
        + _network_call
        + _scheme_watch
        + _margin_script.replace("MIN_PX", f"{float(min_label_px):g}"),
        1,
    )
    page = _remote_link.sub("", page)
    page = _remote_script.sub("", page)
    page = _source_map.sub("", page)
    page = _empty_heading.sub("", page)
    head = _tip_style if library is None else library_tags(library) + _tip_style
    return page.replace("</head>", head + "</head>", 1)
