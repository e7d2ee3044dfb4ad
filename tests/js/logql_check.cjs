// Parses LogQL with Grafana's own grammar (@grafana/lezer-logql): reads a JSON array of queries on stdin,
// prints the offset of the first syntax error of each (null when it parses).
const { parser } = require("@grafana/lezer-logql");
const queries = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = queries.map((q) => {
  const tree = parser.parse(q);
  let bad = null;
  tree.iterate({ enter: (n) => { if (n.type.isError && bad === null) bad = n.from; } });
  return bad;
});
console.log(JSON.stringify(out));
