curl -X POST http://h/ \
  -H "A: b" \
  --data-binary "line1
line2"
