pm.test('refused', function () { pm.response.to.have.status(401); });
pm.test('no header', function () {
    pm.expect(pm.response.headers.has('WWW-Authenticate')).to.be.true;
});