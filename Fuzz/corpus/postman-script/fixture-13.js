pm.test('a uuid', function () {
    pm.expect(pm.response.json().args.id[0]).to.match(/^[0-9a-f-]{36}$/);
});