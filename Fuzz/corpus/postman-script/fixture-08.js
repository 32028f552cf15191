pm.test('sent', function () {
    pm.expect(pm.response.json().headers['X-Api-Key']).to.eql('t0ken');
});