// The fairness page's own check: it fetches the game's fairness record (fairness.json), hashes
// the seed against the commitment, derives the key and draws every die and shuffle again, here,
// with the browser's Web Crypto. Nothing the server says about its own check is used: each row
// shows what this machine found. docs/fairness-json.md is the record's format, docs/fairness.md
// the draws' specification. Every text is set with textContent, never as markup: the record
// carries what players wrote. Every sentence shown comes from the page, in its language (the
// JSON block #fairness-words, adjudicator/web/fairness_words.py); a {name} in one is filled here.
(function () {
  "use strict";
  var box = document.getElementById("local-check");
  var given = document.getElementById("fairness-words");
  if (!box || !given) { return; }
  var words = JSON.parse(given.textContent);

  // A sentence of the page's, its {name}s filled from values.
  function word(key, values) {
    var text = words[key];
    if (typeof text !== "string") {  // a sentence by plural category: values.num picks
      var category = new Intl.PluralRules(document.documentElement.lang).select(values.num);
      text = text[category] || text.other;
    }
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && name in values ? String(values[name]) : whole;
    });
  }
  var encoder = new TextEncoder();
  var TWO64 = BigInt(1) << BigInt(64);

  function say(text, kind) {
    box.textContent = text;
    box.className = "local-check " + kind;
  }

  function hex(bytes) {
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  function fromHex(text) {
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) { throw new Error(word("not_hex")); }
    var bytes = new Uint8Array(text.length / 2);
    for (var i = 0; i < bytes.length; i++) { bytes[i] = parseInt(text.substr(i * 2, 2), 16); }
    return bytes;
  }

  function joined(parts) {
    var size = parts.reduce(function (sum, part) { return sum + part.length; }, 0);
    var out = new Uint8Array(size);
    var at = 0;
    parts.forEach(function (part) { out.set(part, at); at += part.length; });
    return out;
  }

  // A length-prefixed UTF-8 field: u32 big-endian length, then the bytes.
  function field(text) {
    var data = encoder.encode(text);
    var out = new Uint8Array(4 + data.length);
    new DataView(out.buffer).setUint32(0, data.length, false);
    out.set(data, 4);
    return out;
  }

  function hmacKey(raw) {
    return crypto.subtle.importKey("raw", raw, {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);
  }

  async function hmac(key, bytes) {
    return new DataView(await crypto.subtle.sign("HMAC", key, bytes));
  }

  // "v1": the seed is the key. "v2": HMAC-SHA256(seed, "pbem chance v2" and, for each
  // contribution in seat order, its seat and its words as length-prefixed fields).
  async function chanceKey(seed, scheme, contributions) {
    if (scheme === "v1") { return hmacKey(seed); }
    if (scheme !== "v2") { throw new Error(word("scheme", {scheme: scheme})); }
    var parts = [encoder.encode("pbem chance v2")];
    contributions.forEach(function (given) { parts.push(field(given.seat), field(given.words)); });
    var derived = await hmac(await hmacKey(seed), joined(parts));
    return hmacKey(new Uint8Array(derived.buffer));
  }

  // A uniform number in [0, bound): HMAC(key, message|step) read as four big-endian 64-bit
  // words, each taken if under the largest multiple of bound below 2^64 (no modulo bias).
  async function uniform(key, message, bound) {
    var n = BigInt(bound);
    var limit = TWO64 - (TWO64 % n);
    for (var step = 0; step < 64; step++) {
      var digest = await hmac(key, encoder.encode(message + "|" + step));
      for (var offset = 0; offset < 32; offset += 8) {
        var value = digest.getBigUint64(offset, false);
        if (value < limit) { return Number(value % n); }
      }
    }
    throw new Error(word("no_draw"));
  }

  async function replay(key, stream, draw) {
    var message = [stream, draw.turn, draw.label, draw.counter].join("|");
    if (draw.kind === "die") { return [(await uniform(key, message, draw.bound)) + 1]; }
    if (draw.kind !== "shuffle") { throw new Error(word("kind", {kind: draw.kind})); }
    var order = [];
    for (var i = 0; i < draw.bound; i++) { order.push(i); }
    for (var top = draw.bound - 1; top > 0; top--) {  // Fisher-Yates, from the top down
      var pick = await uniform(key, message + "|swap" + top, top + 1);
      var held = order[top];
      order[top] = order[pick];
      order[pick] = held;
    }
    return order;
  }

  function shown(values) {
    return values.length > 8 ? values.slice(0, 8).join(" ") + " …" : values.join(" ");
  }

  function mark(index, ok, recorded, replayed) {
    var row = document.querySelector('tr[data-index="' + index + '"]');
    var cell = row && row.querySelector("td.local");
    if (!cell) { return; }
    cell.textContent = "";
    var sign = document.createElement("span");
    sign.className = ok ? "ok" : "bad";
    sign.textContent = word(ok ? "checked" : "differs");
    cell.appendChild(sign);
    if (!ok) {
      row.classList.add("mismatch");
      var detail = document.createElement("span");
      detail.className = "detail";
      detail.textContent = word("detail", {recorded: shown(recorded), replayed: shown(replayed)});
      cell.appendChild(detail);
    }
  }

  async function check(record) {
    if (!record.seed) {
      say(word("nothing"), "waiting");
      return;
    }
    var seed = fromHex(record.seed);
    var hashed = hex(new Uint8Array(await crypto.subtle.digest("SHA-256", seed)));
    var seedOk = hashed === String(record.commitment).toLowerCase();
    var key = await chanceKey(seed, record.scheme, record.contributions || []);
    var draws = [];
    record.turns.forEach(function (turn) {
      turn.draws.forEach(function (draw) { draws.push({turn: turn, draw: draw}); });
    });
    var wrong = 0;
    for (var i = 0; i < draws.length; i++) {
      var draw = draws[i].draw;
      var replayed = await replay(key, record.stream, draw);
      var ok = replayed.join(" ") === draw.result.join(" ") && draw.turn === draws[i].turn.number;
      if (!ok) { wrong++; }
      mark(i, ok, draw.result, replayed);
    }
    // The counts in the page's sentences are the server's, of the same record.
    if (seedOk && wrong === 0) {
      say(word("good"), "good");
    } else {
      say([word("different"), seedOk ? "" : word("seed"), wrong ? word("wrong", {num: wrong}) : ""]
        .filter(Boolean).join(" "), "wrong");
    }
  }

  if (!window.crypto || !crypto.subtle || typeof BigInt === "undefined") {
    say(word("unable"), "waiting");
    return;
  }
  say(word("checking"), "waiting");
  fetch(box.getAttribute("data-record"), {cache: "no-store"})
    .then(function (response) {
      if (!response.ok) { throw new Error(word("answered", {answer: response.status})); }
      return response.json();
    })
    .then(check)
    .catch(function (error) {
      say(word("failed", {error: error.message}), "wrong");
    });
})();
